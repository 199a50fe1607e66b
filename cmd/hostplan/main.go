// Command hostplan plans where an AI workload should run and what it will
// cost. With no subcommand it opens the desktop window; otherwise it runs
// the subcommand (see hostplan help).
package main

import (
	"fmt"
	"os"

	"hostplan/internal/cli"
)

func main() {
	db, rest, err := cli.SplitGlobal(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostplan:", err)
		os.Exit(cli.ExitUsage)
	}
	if len(rest) == 0 {
		os.Exit(runGUI(db))
	}
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
