# fish completion for kubectl-stsresize, called directly:  kubectl stsresize completion fish | source
# ('kubectl stsresize <TAB>' goes through kubectl's own completion and kubectl_complete-stsresize.)
function __kubectl_stsresize_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    # "$current" stays one (maybe empty) word: the one being completed
    set -l out ($words[1] __complete $words[2..-1] "$current" 2>/dev/null)
    or return
    # the last line is cobra's ":<directive>"; fish reads "name<TAB>description" natively
    set -l directive (string replace -r '^:' '' -- $out[-1])
    set -e out[-1]
    if test (count $out) -eq 0
        # directive bit 4: no file completion; without it the shell completes paths
        if string match -qr '^[0-9]+$' -- $directive; and test (math "bitand($directive, 4)") -eq 0
            __fish_complete_path "$current"
        end
        return
    end
    printf '%s\n' $out
end
complete -c kubectl-stsresize -f -a '(__kubectl_stsresize_complete)'
