//go:build !unix

package store

import "os"

// unlock does nothing where bbolt's lock belongs to the file handle, which
// the caller closes.
func unlock(*os.File) {}
