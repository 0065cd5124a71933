// Package cliargs prepares command lines for github.com/urfave/cli/v2,
// whose flag parser stops at the first positional argument.
package cliargs

import "strings"

// Reorder moves the options of args[head:] in front of its positional
// arguments ("prog m.json --input x" becomes "prog --input x -- m.json"):
// args[:head] (the program and any subcommand name) stay first, an option
// named in valueFlags takes the next argument as its value unless written
// --name=value, and "--" ends the options.
func Reorder(args []string, head int, valueFlags map[string]bool) []string {
	if len(args) <= head {
		return args
	}
	var flags, pos []string
	rest := args[head:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && valueFlags[name] && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append(append([]string(nil), args[:head]...), flags...)
	if len(pos) > 0 {
		out = append(append(out, "--"), pos...)
	}
	return out
}
