#!/bin/bash

__secstore_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__secstore_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__secstore_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__secstore_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_secstore() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--store --device-key)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|info|list|get|add|update|delete|generate|edit|exec|lock|unlock|passphrase|export|import|verify|identity|keyring|sync|help)
        # Offer subcommand argument completions
        "_secstore_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create info list get add update delete generate edit exec lock unlock passphrase export import verify identity keyring sync help' -- "${cur}"))
        ;;
    esac
}

_secstore_create() {
    repeating_flags=()
    non_repeating_flags=(--passphrase --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env --kdf-ops --kdf-memory)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--kdf-ops')
        return
        ;;
    '--kdf-memory')
        return
        ;;
    esac
}

_secstore_info() {
    repeating_flags=()
    non_repeating_flags=(--passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_list() {
    repeating_flags=()
    non_repeating_flags=(--synchronizable --no-synchronizable --refs --show-secrets --glob --passphrase-stdin --json -q --quiet --no-headers --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --passphrase-file --passphrase-env --format)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--format')
        __secstore_add_completions -W 'table'$'\n''tsv'$'\n''json'
        return
        ;;
    esac
}

_secstore_get() {
    repeating_flags=()
    non_repeating_flags=(--synchronizable --no-synchronizable --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_add() {
    repeating_flags=()
    non_repeating_flags=(--synchronizable --no-synchronizable --update --value-stdin --prompt --trim-newline --allow-empty --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --accessibility --comment --description --value-file --value --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--accessibility')
        __secstore_add_completions -W 'whenUnlocked'$'\n''afterFirstUnlock'$'\n''always'$'\n''whenUnlockedThisDeviceOnly'$'\n''afterFirstUnlockThisDeviceOnly'$'\n''alwaysThisDeviceOnly'$'\n''whenPasscodeSetThisDeviceOnly'
        return
        ;;
    '--comment')
        return
        ;;
    '--description')
        return
        ;;
    '--value-file')
        __secstore_add_completions -f
        return
        ;;
    '--value')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_update() {
    repeating_flags=()
    non_repeating_flags=(--synchronizable --no-synchronizable --all --value-stdin --prompt --trim-newline --allow-empty --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --new-account --new-service --new-server --new-group --new-label --new-accessibility --new-comment --new-description --value-file --value --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--new-account')
        return
        ;;
    '--new-service')
        return
        ;;
    '--new-server')
        return
        ;;
    '--new-group')
        return
        ;;
    '--new-label')
        return
        ;;
    '--new-accessibility')
        __secstore_add_completions -W 'whenUnlocked'$'\n''afterFirstUnlock'$'\n''always'$'\n''whenUnlockedThisDeviceOnly'$'\n''afterFirstUnlockThisDeviceOnly'$'\n''alwaysThisDeviceOnly'$'\n''whenPasscodeSetThisDeviceOnly'
        return
        ;;
    '--new-comment')
        return
        ;;
    '--new-description')
        return
        ;;
    '--value-file')
        __secstore_add_completions -f
        return
        ;;
    '--value')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_delete() {
    repeating_flags=()
    non_repeating_flags=(--synchronizable --no-synchronizable --all -y --yes --dry-run --glob --damaged --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_generate() {
    repeating_flags=()
    non_repeating_flags=(--synchronizable --no-synchronizable --no-symbols --print --update --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --accessibility --comment --description -l --length --classes --exclude --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--accessibility')
        __secstore_add_completions -W 'whenUnlocked'$'\n''afterFirstUnlock'$'\n''always'$'\n''whenUnlockedThisDeviceOnly'$'\n''afterFirstUnlockThisDeviceOnly'$'\n''alwaysThisDeviceOnly'$'\n''whenPasscodeSetThisDeviceOnly'
        return
        ;;
    '--comment')
        return
        ;;
    '--description')
        return
        ;;
    '-l'|'--length')
        return
        ;;
    '--classes')
        __secstore_add_completions -W 'lower,upper,digits,symbols'$'\n''lower,upper,digits'$'\n''digits'
        return
        ;;
    '--exclude')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_edit() {
    repeating_flags=()
    non_repeating_flags=(--synchronizable --no-synchronizable --allow-empty --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_exec() {
    repeating_flags=()
    non_repeating_flags=(--passphrase-stdin --version -h --help)
    repeating_options=(-e --env --env-file)
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env)
    __secstore_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '-e'|'--env')
        return
        ;;
    '--env-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_lock() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_unlock() {
    repeating_flags=()
    non_repeating_flags=(--passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env --for)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--for')
        __secstore_add_completions -W '90s'$'\n''30m'$'\n''8h'$'\n''1d'
        return
        ;;
    esac
}

_secstore_passphrase() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __secstore_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    set|change|remove)
        # Offer subcommand argument completions
        "_secstore_passphrase_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'set change remove' -- "${cur}"))
        ;;
    esac
}

_secstore_passphrase_set() {
    repeating_flags=()
    non_repeating_flags=(--passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env --kdf-ops --kdf-memory)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--kdf-ops')
        return
        ;;
    '--kdf-memory')
        return
        ;;
    esac
}

_secstore_passphrase_change() {
    repeating_flags=()
    non_repeating_flags=(--passphrase-stdin --new-passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env --new-passphrase-file --new-passphrase-env --kdf-ops --kdf-memory)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--new-passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--new-passphrase-env')
        return
        ;;
    '--kdf-ops')
        return
        ;;
    '--kdf-memory')
        return
        ;;
    esac
}

_secstore_passphrase_remove() {
    repeating_flags=()
    non_repeating_flags=(-y --yes --dry-run --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_export() {
    repeating_flags=()
    non_repeating_flags=(--force --skip-damaged --plaintext --synchronizable --no-synchronizable --backup-passphrase-stdin --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=(--attribute)
    non_repeating_options=(--store --device-key --format --class -s --service -a --account -g --group --label --server --port --protocol --path --security-domain --authentication-type --ref --backup-passphrase-file --backup-passphrase-env --passphrase-file --passphrase-env --kdf-ops --kdf-memory)
    __secstore_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--format')
        __secstore_add_completions -W 'backup'$'\n''env'$'\n''json'$'\n''csv'
        return
        ;;
    '--class')
        __secstore_add_completions -W 'genp'$'\n''inet'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-a'|'--account')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--label')
        return
        ;;
    '--server')
        return
        ;;
    '--port')
        return
        ;;
    '--protocol')
        return
        ;;
    '--path')
        return
        ;;
    '--security-domain')
        return
        ;;
    '--authentication-type')
        return
        ;;
    '--attribute')
        return
        ;;
    '--ref')
        return
        ;;
    '--backup-passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--backup-passphrase-env')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--kdf-ops')
        return
        ;;
    '--kdf-memory')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_import() {
    repeating_flags=()
    non_repeating_flags=(--dry-run --backup-passphrase-stdin --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --on-conflict --format -s --service -g --group --accessibility --backup-passphrase-file --backup-passphrase-env --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--on-conflict')
        __secstore_add_completions -W 'skip'$'\n''replace'$'\n''fail'
        return
        ;;
    '--format')
        __secstore_add_completions -W 'backup'$'\n''env'$'\n''json'$'\n''csv'
        return
        ;;
    '-s'|'--service')
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--accessibility')
        __secstore_add_completions -W 'whenUnlocked'$'\n''afterFirstUnlock'$'\n''always'$'\n''whenUnlockedThisDeviceOnly'$'\n''afterFirstUnlockThisDeviceOnly'$'\n''alwaysThisDeviceOnly'$'\n''whenPasscodeSetThisDeviceOnly'
        return
        ;;
    '--backup-passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--backup-passphrase-env')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_verify() {
    repeating_flags=()
    non_repeating_flags=(--passphrase-stdin --accept-current-items --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_identity() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __secstore_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|reset)
        # Offer subcommand argument completions
        "_secstore_identity_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show reset' -- "${cur}"))
        ;;
    esac
}

_secstore_identity_show() {
    repeating_flags=()
    non_repeating_flags=(--lowercase --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key -g --group --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_identity_reset() {
    repeating_flags=()
    non_repeating_flags=(--lowercase -y --yes --dry-run --passphrase-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key -g --group --passphrase-file --passphrase-env)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '-g'|'--group')
        return
        ;;
    '--passphrase-file')
        __secstore_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    esac
}

_secstore_keyring() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __secstore_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|prune)
        # Offer subcommand argument completions
        "_secstore_keyring_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list prune' -- "${cur}"))
        ;;
    esac
}

_secstore_keyring_list() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet --no-headers --version -h --help)
    repeating_options=()
    non_repeating_options=(--format)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--format')
        __secstore_add_completions -W 'table'$'\n''tsv'$'\n''json'
        return
        ;;
    esac
}

_secstore_keyring_prune() {
    repeating_flags=()
    non_repeating_flags=(--all --dry-run --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __secstore_offer_flags_options 0
}

_secstore_sync() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __secstore_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    init|join|approve|remove|status|now|daemon)
        # Offer subcommand argument completions
        "_secstore_sync_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'init join approve remove status now daemon' -- "${cur}"))
        ;;
    esac
}

_secstore_sync_init() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --endpoints --prefix --user --password-file --ca-file --cert-file --key-file)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--endpoints')
        return
        ;;
    '--prefix')
        return
        ;;
    '--user')
        return
        ;;
    '--password-file')
        __secstore_add_completions -f
        return
        ;;
    '--ca-file')
        __secstore_add_completions -f
        return
        ;;
    '--cert-file')
        __secstore_add_completions -f
        return
        ;;
    '--key-file')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_sync_join() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key --endpoints --prefix --user --password-file --ca-file --cert-file --key-file)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    '--endpoints')
        return
        ;;
    '--prefix')
        return
        ;;
    '--user')
        return
        ;;
    '--password-file')
        __secstore_add_completions -f
        return
        ;;
    '--ca-file')
        __secstore_add_completions -f
        return
        ;;
    '--cert-file')
        __secstore_add_completions -f
        return
        ;;
    '--key-file')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_sync_approve() {
    repeating_flags=()
    non_repeating_flags=(--code-stdin --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key)
    __secstore_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_sync_remove() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key)
    __secstore_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_sync_status() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_sync_now() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_sync_daemon() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store --device-key)
    __secstore_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __secstore_add_completions -f
        return
        ;;
    '--device-key')
        __secstore_add_completions -f
        return
        ;;
    esac
}

_secstore_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __secstore_offer_flags_options -1
}

complete -o filenames -F _secstore secstore
