// Package assets embeds the files hostplan ships with: the dated, sourced
// price and hardware catalog and the application icon.
package assets

import "embed"

// Catalog holds catalog/*.json.
//
//go:embed catalog/*.json
var Catalog embed.FS

// Icon is the application icon (PNG).
//
//go:embed icon.png
var Icon []byte
