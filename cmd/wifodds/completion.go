package main

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"
)

// The completion scripts ask the binary itself for candidates (urfave/cli's
// --generate-bash-completion), so they follow every command and flag.
const bashCompletion = `# wifodds completion for bash: source this file, or put it in
# /etc/bash_completion.d/wifodds
_wifodds() {
    local cur words
    cur="${COMP_WORDS[COMP_CWORD]}"
    if [[ "$cur" == -* ]]; then
        words=$("${COMP_WORDS[0]}" "${COMP_WORDS[@]:1:$COMP_CWORD-1}" "$cur" --generate-bash-completion 2>/dev/null)
    else
        words=$("${COMP_WORDS[0]}" "${COMP_WORDS[@]:1:$COMP_CWORD-1}" --generate-bash-completion 2>/dev/null)
    fi
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    if [[ ${#COMPREPLY[@]} -eq 0 ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o default -F _wifodds wifodds
`

const zshCompletion = `#compdef wifodds
# wifodds completion for zsh: put this file on your $fpath as _wifodds
_wifodds() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[1]} ${words[2,-2]} $cur --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[1]} ${words[2,-2]} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ -n "${opts[1]}" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _wifodds wifodds
`

func completionCommand() *cli.Command {
	return command("completion", "print a shell completion script: bash, zsh or fish", "SHELL",
		"Examples:\n   source <(wifodds completion bash)\n   wifodds completion zsh > ~/.zsh/completions/_wifodds\n"+
			"   wifodds completion fish > ~/.config/fish/completions/wifodds.fish",
		nil, func(c *cli.Context) error {
			shell, err := oneArg(c, "a shell: bash, zsh or fish")
			if err != nil {
				return err
			}
			switch shell {
			case "bash":
				_, err = fmt.Fprint(c.App.Writer, bashCompletion)
			case "zsh":
				_, err = fmt.Fprint(c.App.Writer, zshCompletion)
			case "fish":
				// urfave/cli's help command is one value shared by every
				// app; once "help X" has run in this process (as in the
				// tests) it lists itself as its own subcommand, and the
				// fish writer would recurse for ever.
				if h := c.App.Command("help"); h != nil {
					h.Subcommands = slices.DeleteFunc(h.Subcommands, func(s *cli.Command) bool { return s == h })
				}
				var script string
				if script, err = c.App.ToFishCompletion(); err == nil {
					_, err = fmt.Fprint(c.App.Writer, script)
				}
			default:
				return usagef("completion %q: want bash, zsh or fish", shell)
			}
			return err
		})
}
