// Command hostplan plans where an AI workload should run and what it will
// cost. With no subcommand it opens the desktop window; otherwise it runs
// the subcommand (see hostplan help).
package main

import (
	"os"

	"hostplan/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr, runGUI))
}
