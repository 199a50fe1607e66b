package main

import (
	"syscall"
	"unsafe"
)

// hostplan.exe is a console program (see the Makefile's windows target):
// as a command-line tool it prints in cmd.exe and PowerShell, which wait
// for it, and into pipes and files. Started from Explorer or a shortcut,
// Windows gives it a console of its own; detachConsole lets go of that
// console before the window opens, so it closes rather than standing empty
// beside the window. A console other processes share (the window started
// from cmd.exe) is kept: what hostplan logs still shows there.
func detachConsole() {
	kernel32 := syscall.NewLazyDLL("kernel32.dll")
	list := kernel32.NewProc("GetConsoleProcessList")
	var pids [2]uint32
	n, _, _ := list.Call(uintptr(unsafe.Pointer(&pids[0])), uintptr(len(pids)))
	if n == 1 { // this process alone: the console is ours
		kernel32.NewProc("FreeConsole").Call()
	}
}
