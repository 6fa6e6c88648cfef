#compdef kubectl-stsresize
# zsh completion for kubectl-stsresize, called directly:  source <(kubectl stsresize completion zsh)
# ('kubectl stsresize <TAB>' goes through kubectl's own completion and kubectl_complete-stsresize.)
_kubectl_stsresize() {
  local out directive
  local -a lines candidates
  out=$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  lines=("${(@f)out}")
  directive=${lines[-1]#:}
  candidates=("${(@)lines[1,-2]}")
  # "name<TAB>description" is _describe's "name:description"; a ':' in a name is escaped
  candidates=("${(@)candidates//:/\\:}")
  candidates=("${(@)candidates/$'\t'/:}")
  if (( ${#candidates} )); then
    _describe 'kubectl-stsresize' candidates
  elif (( (directive & 4) == 0 )); then
    _files
  fi
}
compdef _kubectl_stsresize kubectl-stsresize
