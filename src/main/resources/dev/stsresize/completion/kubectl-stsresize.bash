# bash completion for kubectl-stsresize, called directly:  source <(kubectl stsresize completion bash)
# ('kubectl stsresize <TAB>' goes through kubectl's own completion and kubectl_complete-stsresize.)
_kubectl_stsresize() {
  local cur=${COMP_WORDS[COMP_CWORD]} out directive
  out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
  directive=${out##*$'\n'}
  directive=${directive#:}
  out=${out%$'\n'*}
  [ "$out" = ":$directive" ] && out=
  COMPREPLY=()
  local line
  while IFS= read -r line; do
    [ -n "$line" ] && COMPREPLY+=("${line%%$'\t'*}")
  done <<<"$out"
  # cobra's directives: 4 = no file completion, 2 = no space after the word
  if [ ${#COMPREPLY[@]} -eq 0 ] && [ $((directive & 4)) -eq 0 ]; then
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
  if [ $((directive & 2)) -ne 0 ]; then
    compopt -o nospace 2>/dev/null
  fi
}
complete -o default -F _kubectl_stsresize kubectl-stsresize
