#compdef secstore

__secstore_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__secstore_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __secstore_complete "${completions[@]:0:-1}"
    fi
}

__secstore_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_secstore() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Create a new store, optionally protected by a passphrase.'
            'info:Show the store'\''s format, item counts, lock state, KDF parameters and files.'
            'list:List items (attributes only) matching the filters.'
            'get:Print one item'\''s secret (raw), or the item as JSON.'
            'add:Add an item.'
            'update:Change an item'\''s secret or attributes.'
            'delete:Delete an item, or every matching item with --all.'
            'generate:Generate a random password and store it as an item.'
            'edit:Edit one item'\''s secret in $VISUAL or $EDITOR.'
            'exec:Run a command with secrets in its environment.'
            'lock:Lock the store: end a shared unlock (`unlock --for`); afterFirstUnlock items become unreadable again until the next unlock.'
            'unlock:Unlock the store for your processes: afterFirstUnlock items until reboot or `secstore lock`; with --for, every item for that long.'
            'passphrase:Set, change or remove the store'\''s passphrase.'
            'export:Write an encrypted backup of the store (…ThisDeviceOnly items are left out), or with --plaintext an env, JSON or CSV file.'
            'import:Restore the items of a backup made by `secstore export`, or import an env, JSON or CSV file.'
            'verify:Check the store file and every item; list damaged items.'
            'identity:Show or reset the stable device identifier kept in the store.'
            'keyring:List or prune SecStore'\''s entries in the kernel user keyring.'
            'sync:Sync synchronizable items with your other devices over etcd, end-to-end encrypted.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|info|list|get|add|update|delete|generate|edit|exec|lock|unlock|passphrase|export|import|verify|identity|keyring|sync|help)
            "_secstore_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_secstore_create() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--passphrase[Protect the new store with a passphrase, asked at the terminal.]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--kdf-ops[Argon2id passes (default 3, minimum 1).]:count:'
        '--kdf-memory[Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).]:size:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_info() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_list() {
    local -i ret=1
    local -ar ___class=('genp' 'inet')
    local -ar ___format=('table' 'tsv' 'json')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--refs[Show each item'\''s persistent reference.]'
        '--show-secrets[Also print each item'\''s secret.]'
        '--glob[Read --service and --account as shell patterns (*, ?, \[a-z\]; \\ escapes).]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--format[table (aligned columns, the default), tsv (tab-separated, for cut and awk) or json (as --json).]:format:{__secstore_complete "${___format[@]}"}'
        '--no-headers[Leave out the header row of table and tsv output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_get() {
    local -i ret=1
    local -ar ___class=('genp' 'inet')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_add() {
    local -i ret=1
    local -ar ___class=('genp' 'inet')
    local -ar ___accessibility=('whenUnlocked' 'afterFirstUnlock' 'always' 'whenUnlockedThisDeviceOnly' 'afterFirstUnlockThisDeviceOnly' 'alwaysThisDeviceOnly' 'whenPasscodeSetThisDeviceOnly')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--accessibility[When the secret is readable\: whenUnlocked (default), afterFirstUnlock, always, or a …ThisDeviceOnly variant; Apple'\''s codes (ak, ck, …) work too.]:class:{__secstore_complete "${___accessibility[@]}"}'
        '--comment[A comment.]:text:'
        '--description[A kind shown to users, such as "application password".]:text:'
        '--update[Replace the item if it exists (its secret and the attributes given)\: add or replace in one call.]'
        '--value-stdin[Read the secret from standard input (all of it, bytes unchanged).]'
        '--value-file[Read the secret from a file (all of it, bytes unchanged).]:path:_files'
        '--value[The secret as an argument. Other users can see it in the process list\: prefer --value-stdin.]:secret:'
        '--prompt[Ask for the secret at the terminal, without echo.]'
        '--trim-newline[Remove one trailing newline from --value-stdin or --value-file input.]'
        '--allow-empty[Accept an empty secret from --value-stdin or --value-file (otherwise an error\: a closed or empty input is usually a mistake).]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_update() {
    local -i ret=1
    local -ar ___class=('genp' 'inet')
    local -ar ___new_accessibility=('whenUnlocked' 'afterFirstUnlock' 'always' 'whenUnlockedThisDeviceOnly' 'afterFirstUnlockThisDeviceOnly' 'alwaysThisDeviceOnly' 'whenPasscodeSetThisDeviceOnly')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--new-account[A new account.]:account:'
        '--new-service[A new service (generic passwords).]:service:'
        '--new-server[A new server (internet passwords).]:host:'
        '--new-group[Move the items to another access group.]:group:'
        '--new-label[A new label.]:label:'
        '--new-accessibility[A new accessibility.]:class:{__secstore_complete "${___new_accessibility[@]}"}'
        '--new-comment[A new comment.]:text:'
        '--new-description[A new description.]:text:'
        '--all[Change every matching item (required when more than one matches).]'
        '--value-stdin[Read the secret from standard input (all of it, bytes unchanged).]'
        '--value-file[Read the secret from a file (all of it, bytes unchanged).]:path:_files'
        '--value[The secret as an argument. Other users can see it in the process list\: prefer --value-stdin.]:secret:'
        '--prompt[Ask for the secret at the terminal, without echo.]'
        '--trim-newline[Remove one trailing newline from --value-stdin or --value-file input.]'
        '--allow-empty[Accept an empty secret from --value-stdin or --value-file (otherwise an error\: a closed or empty input is usually a mistake).]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_delete() {
    local -i ret=1
    local -ar ___class=('genp' 'inet')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--all[Delete every matching item (required when more than one matches).]'
        '(-y --yes)'{-y,--yes}'[Do not ask for confirmation at a terminal.]'
        '--dry-run[Show what would be deleted; delete nothing.]'
        '--glob[Read --service and --account as shell patterns (*, ?, \[a-z\]; \\ escapes).]'
        '--damaged[With --ref\: delete the item without opening it (for damaged items).]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_generate() {
    local -i ret=1
    local -ar ___class=('genp' 'inet')
    local -ar ___accessibility=('whenUnlocked' 'afterFirstUnlock' 'always' 'whenUnlockedThisDeviceOnly' 'afterFirstUnlockThisDeviceOnly' 'alwaysThisDeviceOnly' 'whenPasscodeSetThisDeviceOnly')
    local -ar ___classes=('lower,upper,digits,symbols' 'lower,upper,digits' 'digits')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--accessibility[When the secret is readable\: whenUnlocked (default), afterFirstUnlock, always, or a …ThisDeviceOnly variant; Apple'\''s codes (ak, ck, …) work too.]:class:{__secstore_complete "${___accessibility[@]}"}'
        '--comment[A comment.]:text:'
        '--description[A kind shown to users, such as "application password".]:text:'
        '(-l --length)'{-l,--length}'[How many characters (1 to 4096; default 32).]:count:'
        '--classes[The character classes, comma-separated\: lower, upper, digits, symbols, or letters, alphanumeric, all (default\: all).]:list:{__secstore_complete "${___classes[@]}"}'
        '--no-symbols[Letters and digits only (as --classes lower,upper,digits).]'
        '--exclude[Characters never to use, such as the look-alikes Il1O0.]:characters:'
        '--print[Also print the password on standard output (in JSON\: "secret").]'
        '--update[Replace the item'\''s secret if it exists (rotate it)\: add or replace in one call.]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_edit() {
    local -i ret=1
    local -ar ___class=('genp' 'inet')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--allow-empty[Accept an empty secret (otherwise an empty file changes nothing).]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_exec() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '*'{-e,--env}'[Set NAME to the secret REFERENCE names\: service/account, service, or ref\:HEX (repeatable).]:name=reference:'
        '*--env-file[Read NAME=REFERENCE lines from a file (repeatable; # comments and blank lines are skipped).]:file:_files'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '*:command:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_lock() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_unlock() {
    local -i ret=1
    local -ar ___for=('90s' '30m' '8h' '1d')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--for[Share every passphrase-protected class with your processes for this long (90s, 30m, 8h, 2d).]:duration:{__secstore_complete "${___for[@]}"}'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_passphrase() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'set:Protect a store that has no passphrase.'
            'change:Replace the store'\''s passphrase.'
            'remove:Remove the store'\''s passphrase (deletes whenPasscodeSetThisDeviceOnly items).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        set|change|remove)
            "_secstore_passphrase_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_secstore_passphrase_set() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--kdf-ops[Argon2id passes (default 3, minimum 1).]:count:'
        '--kdf-memory[Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).]:size:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_passphrase_change() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--new-passphrase-stdin[Read the new passphrase from the next line of standard input.]'
        '--new-passphrase-file[Read the new passphrase from the first line of a file.]:path:_files'
        '--new-passphrase-env[Read the new passphrase from this environment variable (an explicit opt-in).]:name:'
        '--kdf-ops[Argon2id passes (default 3, minimum 1).]:count:'
        '--kdf-memory[Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).]:size:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_passphrase_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '(-y --yes)'{-y,--yes}'[Do not ask before deleting whenPasscodeSetThisDeviceOnly items at a terminal.]'
        '--dry-run[Say how many items would be deleted; change nothing (no passphrase needed).]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_export() {
    local -i ret=1
    local -ar ___format=('backup' 'env' 'json' 'csv')
    local -ar ___class=('genp' 'inet')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        ':file:_files'
        '--force[Replace the file if it exists.]'
        '--skip-damaged[Leave out items that fail authentication (a partial backup; exit status 7), instead of exporting nothing.]'
        '--format[backup (encrypted, the default), or plaintext env, json or csv (with --plaintext).]:format:{__secstore_complete "${___format[@]}"}'
        '--plaintext[Confirm that --format env, json or csv writes the secrets unencrypted.]'
        '--class[The item class\: genp (generic password) or inet (internet password). Without it\: inet when an internet-password option is given, genp when --service is, else the command'\''s default (genp; list and delete --all\: both).]:class:{__secstore_complete "${___class[@]}"}'
        '(-s --service)'{-s,--service}'[The service (generic passwords).]:service:'
        '(-a --account)'{-a,--account}'[The account.]:account:'
        '(-g --group)'{-g,--group}'[The access group.]:group:'
        '--label[The label\: a user-visible name.]:label:'
        '--server[The server (internet passwords).]:host:'
        '--port[The port (internet passwords).]:port:'
        '--protocol[The protocol (internet passwords)\: a name such as https or ssh, or a four-character code such as htps.]:protocol:'
        '--path[The path (internet passwords).]:path:'
        '--security-domain[The security domain (internet passwords).]:domain:'
        '--authentication-type[The authentication type (internet passwords), a four-character code such as dflt or form.]:code:'
        '*--attribute[A free-form attribute NAME=VALUE (repeatable)\: a new item'\''s, or a filter matched exactly (the Secret Service'\''s lookup attributes).]:name=value:'
        '--synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--no-synchronizable[Synchronizable (kSecAttrSynchronizable)\: a new item that syncs to the circle'\''s devices (`secstore sync`), or a filter; without it, a search matches both.]'
        '--ref[One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).]:hex:'
        '--backup-passphrase-stdin[Read the backup passphrase from the next line of standard input.]'
        '--backup-passphrase-file[Read the backup passphrase from the first line of a file.]:path:_files'
        '--backup-passphrase-env[Read the backup passphrase from this environment variable (an explicit opt-in).]:name:'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--kdf-ops[Argon2id passes (default 3, minimum 1).]:count:'
        '--kdf-memory[Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).]:size:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_import() {
    local -i ret=1
    local -ar ___on_conflict=('skip' 'replace' 'fail')
    local -ar ___format=('backup' 'env' 'json' 'csv')
    local -ar ___accessibility=('whenUnlocked' 'afterFirstUnlock' 'always' 'whenUnlockedThisDeviceOnly' 'afterFirstUnlockThisDeviceOnly' 'alwaysThisDeviceOnly' 'whenPasscodeSetThisDeviceOnly')
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        ':file:_files'
        '--on-conflict[What to do with an item already in the store\: skip, replace or fail.]:policy:{__secstore_complete "${___on_conflict[@]}"}'
        '--format[backup (encrypted, the default), or plaintext env, json or csv.]:format:{__secstore_complete "${___format[@]}"}'
        '(-s --service)'{-s,--service}'[--format env\: the service of every item (each NAME is an account).]:service:'
        '(-g --group)'{-g,--group}'[Plaintext formats\: the access group of items that name none (default\: as `add`).]:group:'
        '--accessibility[Plaintext formats\: the accessibility of items that name none (default whenUnlocked).]:class:{__secstore_complete "${___accessibility[@]}"}'
        '--dry-run[Plaintext formats\: report what would be added, skipped and replaced; change nothing.]'
        '--backup-passphrase-stdin[Read the backup passphrase from the next line of standard input.]'
        '--backup-passphrase-file[Read the backup passphrase from the first line of a file.]:path:_files'
        '--backup-passphrase-env[Read the backup passphrase from this environment variable (an explicit opt-in).]:name:'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_verify() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--accept-current-items[When the items no longer match the store'\''s digest and nothing else is wrong, record them as they are.]'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_identity() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'show:Print the device identifier, creating it on first use.'
            'reset:Replace the device identifier with a new random one.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        show|reset)
            "_secstore_identity_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_secstore_identity_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '(-g --group)'{-g,--group}'[The access group whose identifier to use.]:group:'
        '--lowercase[Print the UUID in lowercase (as uuidgen and systemd do).]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_identity_reset() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '(-g --group)'{-g,--group}'[The access group whose identifier to use.]:group:'
        '--lowercase[Print the UUID in lowercase (as uuidgen and systemd do).]'
        '(-y --yes)'{-y,--yes}'[Do not ask for confirmation at a terminal.]'
        '--dry-run[Say what would be replaced; change nothing.]'
        '--passphrase-stdin[Read the store passphrase from the first line of standard input.]'
        '--passphrase-file[Read the store passphrase from the first line of a file.]:path:_files'
        '--passphrase-env[Read the store passphrase from this environment variable (an explicit opt-in).]:name:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_keyring() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:Show SecStore'\''s entries in your kernel keyring, by store, and whether each store still exists.'
            'prune:Remove the kernel keyring entries of stores that no longer exist (--all: of every store).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|prune)
            "_secstore_keyring_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_secstore_keyring_list() {
    local -i ret=1
    local -ar ___format=('table' 'tsv' 'json')
    local -ar arg_specs=(
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--format[table (aligned columns, the default), tsv (tab-separated, for cut and awk) or json (as --json).]:format:{__secstore_complete "${___format[@]}"}'
        '--no-headers[Leave out the header row of table and tsv output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_keyring_prune() {
    local -i ret=1
    local -ar arg_specs=(
        '--all[Remove every SecStore entry, of every store (as `secstore lock` on each).]'
        '--dry-run[Say what would be removed; remove nothing.]'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_sync() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'init:Create a sync circle in etcd with this store as its first device, and push its synchronizable items.'
            'join:Ask to join the sync circle in etcd: prints a code (the last line of its output) to approve on a member device.'
            'approve:Approve the device whose `sync join` printed a code: hand it the circle'\''s keys.'
            'remove:Remove a device from the circle: new keys for the others, so it cannot read anything written from now on.'
            'status:Show this device, its circle'\''s devices, the last revision applied and the changes waiting to be pushed.'
            'now:Sync once: apply what other devices wrote, then push this store'\''s changes.'
            'daemon:Sync in the foreground until stopped: watch etcd and push local changes as they are made.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        init|join|approve|remove|status|now|daemon)
            "_secstore_sync_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_secstore_sync_init() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--endpoints[etcd'\''s client URLs, comma-separated (each member of the cluster).]:urls:'
        '--prefix[The etcd key prefix the circle lives under.]:prefix:'
        '--user[etcd'\''s user, when etcd has authentication on.]:name:'
        '--password-file[A file whose first line is etcd'\''s password (else $SECSTORE_ETCD_PASSWORD); a regular file must be private to you (mode 0600 or 0400), a stream such as <(pass etcd) is read as it comes.]:path:_files'
        '--ca-file[TLS\: a PEM file of the certificate authorities that sign etcd'\''s certificates (default\: the system'\''s).]:path:_files'
        '--cert-file[TLS\: a client certificate (PEM) for etcd'\''s --client-cert-auth.]:path:_files'
        '--key-file[TLS\: the client certificate'\''s private key (PEM).]:path:_files'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_sync_join() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--endpoints[etcd'\''s client URLs, comma-separated (each member of the cluster).]:urls:'
        '--prefix[The etcd key prefix the circle lives under.]:prefix:'
        '--user[etcd'\''s user, when etcd has authentication on.]:name:'
        '--password-file[A file whose first line is etcd'\''s password (else $SECSTORE_ETCD_PASSWORD); a regular file must be private to you (mode 0600 or 0400), a stream such as <(pass etcd) is read as it comes.]:path:_files'
        '--ca-file[TLS\: a PEM file of the certificate authorities that sign etcd'\''s certificates (default\: the system'\''s).]:path:_files'
        '--cert-file[TLS\: a client certificate (PEM) for etcd'\''s --client-cert-auth.]:path:_files'
        '--key-file[TLS\: the client certificate'\''s private key (PEM).]:path:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_sync_approve() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--code-stdin[Read the code from the next line of standard input.]'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_sync_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        ':device:'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_sync_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_sync_now() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--json[Print JSON (shapes documented in docs/cli.md) instead of text.]'
        '(-q --quiet)'{-q,--quiet}'[Print only what was asked for (secrets, listings, JSON) and problems\: no confirmations, notes or hints.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_sync_daemon() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store file. Default\: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).]:path:_files'
        '--device-key[The device key file. Default\: $SECSTORE_DEVICE_KEY, else device.key next to the default store.]:path:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_secstore_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _secstore ]]; then
    _secstore "${@}"
else
    compdef _secstore secstore
fi
