# zsh -f capture-completion.zsh SCRIPT LINE
# Prints the completions an interactive zsh offers for LINE<TAB>, one per line, with SCRIPT sourced
# after compinit: a real zsh on a pseudo-terminal (zpty), whose completion system runs as on a
# keyboard; what it hands to compadd (the matches, after its own filtering) is printed. Exit 4 when
# zsh did not finish completing within a minute.
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
# the markers are split in the input, so the terminal's echo of these lines never matches them
zpty -w z 'PROMPT=; unsetopt zle_bracketed_paste 2>/dev/null; autoload -U compinit; compinit -u -D'
zpty -w z "source ${(q)1}"
zpty -w z 'zstyle ":completion:*" list-grouped false; zstyle ":completion:*" insert-tab false'
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a h; builtin compadd -A h "$@"; local m; for m in $h; do print -r -- "<hi""t>$m"; done; }'
zpty -w z '__captured() { print -r -- "<do""ne>"; exit }; comppostfuncs=(__captured); bindkey "^I" complete-word'
zpty -w z "$2"$'\t'
local line
integer deadline=$(( SECONDS + 60 ))
while (( SECONDS < deadline )); do
  if ! zpty -rt z line; then
    sleep 0.05
    continue
  fi
  line=${line//[$'\r\n']/}
  if [[ $line == *'<done>'* ]]; then
    zpty -d z
    exit 0
  fi
  [[ $line == *'<hit>'* ]] && print -r -- "${line##*<hit>}"
done
zpty -d z
exit 4
