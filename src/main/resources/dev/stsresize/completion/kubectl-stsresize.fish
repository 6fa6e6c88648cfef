# fish completion for kubectl-stsresize, called directly:  kubectl stsresize completion fish | source
# ('kubectl stsresize <TAB>' goes through kubectl's own completion and kubectl_complete-stsresize.)
function __kubectl_stsresize_complete
    set -l words (commandline -opc)
    set -l out ($words[1] __complete $words[2..-1] (commandline -ct) 2>/dev/null)
    or return
    # the last line is cobra's ":<directive>"; fish reads "name<TAB>description" natively
    set -e out[-1]
    printf '%s\n' $out
end
complete -c kubectl-stsresize -f -a '(__kubectl_stsresize_complete)'
