// Package scenarios embeds the example scenarios that seed a new store.
package scenarios

import "embed"

// FS holds the example scenario files, one JSON file each.
//
//go:embed *.json
var FS embed.FS
