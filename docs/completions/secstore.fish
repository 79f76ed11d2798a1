function __secstore_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __secstore_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __secstore_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __secstore_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __secstore_parse_tokens -S
    set -l unparsed_tokens (__secstore_tokens -pc)
    switch $unparsed_tokens[1]
    case 'secstore'
        __secstore_parse_subcommand 0 'store=' 'device-key=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'create'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'passphrase' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'kdf-ops=' 'kdf-memory=' 'json' 'q/quiet' 'version' 'h/help'
        case 'info'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'list'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'refs' 'show-secrets' 'glob' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'format=' 'no-headers' 'version' 'h/help'
        case 'get'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'add'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'accessibility=' 'comment=' 'description=' 'update' 'value-stdin' 'value-file=' 'value=' 'prompt' 'trim-newline' 'allow-empty' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'update'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'new-account=' 'new-service=' 'new-server=' 'new-group=' 'new-label=' 'new-accessibility=' 'new-comment=' 'new-description=' 'all' 'value-stdin' 'value-file=' 'value=' 'prompt' 'trim-newline' 'allow-empty' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'delete'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'all' 'y/yes' 'dry-run' 'glob' 'damaged' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'generate'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'accessibility=' 'comment=' 'description=' 'l/length=' 'classes=' 'no-symbols' 'exclude=' 'print' 'update' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'edit'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'allow-empty' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'exec'
            __secstore_parse_subcommand -r 1 'store=' 'device-key=' 'e/env=+' 'env-file=+' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'version' 'h/help'
        case 'lock'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'json' 'q/quiet' 'version' 'h/help'
        case 'unlock'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'for=' 'json' 'q/quiet' 'version' 'h/help'
        case 'passphrase'
            __secstore_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'set'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'kdf-ops=' 'kdf-memory=' 'json' 'q/quiet' 'version' 'h/help'
            case 'change'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'new-passphrase-stdin' 'new-passphrase-file=' 'new-passphrase-env=' 'kdf-ops=' 'kdf-memory=' 'json' 'q/quiet' 'version' 'h/help'
            case 'remove'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'y/yes' 'dry-run' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
            end
        case 'export'
            __secstore_parse_subcommand 1 'store=' 'device-key=' 'force' 'skip-damaged' 'format=' 'plaintext' 'class=' 's/service=' 'a/account=' 'g/group=' 'label=' 'server=' 'port=' 'protocol=' 'path=' 'security-domain=' 'authentication-type=' 'attribute=+' 'synchronizable' 'no-synchronizable' 'ref=' 'backup-passphrase-stdin' 'backup-passphrase-file=' 'backup-passphrase-env=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'kdf-ops=' 'kdf-memory=' 'json' 'q/quiet' 'version' 'h/help'
        case 'import'
            __secstore_parse_subcommand 1 'store=' 'device-key=' 'on-conflict=' 'format=' 's/service=' 'g/group=' 'accessibility=' 'dry-run' 'backup-passphrase-stdin' 'backup-passphrase-file=' 'backup-passphrase-env=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
        case 'verify'
            __secstore_parse_subcommand 0 'store=' 'device-key=' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'accept-current-items' 'json' 'q/quiet' 'version' 'h/help'
        case 'identity'
            __secstore_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'g/group=' 'lowercase' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
            case 'reset'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'g/group=' 'lowercase' 'y/yes' 'dry-run' 'passphrase-stdin' 'passphrase-file=' 'passphrase-env=' 'json' 'q/quiet' 'version' 'h/help'
            end
        case 'keyring'
            __secstore_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __secstore_parse_subcommand 0 'json' 'q/quiet' 'format=' 'no-headers' 'version' 'h/help'
            case 'prune'
                __secstore_parse_subcommand 0 'all' 'dry-run' 'json' 'q/quiet' 'version' 'h/help'
            end
        case 'sync'
            __secstore_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'init'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'endpoints=' 'prefix=' 'user=' 'password-file=' 'ca-file=' 'cert-file=' 'key-file=' 'json' 'q/quiet' 'version' 'h/help'
            case 'join'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'endpoints=' 'prefix=' 'user=' 'password-file=' 'ca-file=' 'cert-file=' 'key-file=' 'version' 'h/help'
            case 'approve'
                __secstore_parse_subcommand 1 'store=' 'device-key=' 'code-stdin' 'json' 'q/quiet' 'version' 'h/help'
            case 'remove'
                __secstore_parse_subcommand 1 'store=' 'device-key=' 'json' 'q/quiet' 'version' 'h/help'
            case 'status'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'json' 'q/quiet' 'version' 'h/help'
            case 'now'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'json' 'q/quiet' 'version' 'h/help'
            case 'daemon'
                __secstore_parse_subcommand 0 'store=' 'device-key=' 'version' 'h/help'
            end
        case 'help'
            __secstore_parse_subcommand -r 1 'version'
        end
    end
end

function __secstore_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __secstore_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __secstore_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __secstore_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__secstore_tokens -p)
    if test -z "$(__secstore_tokens -t)"
        set -l index (count (__secstore_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'secstore' -f
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'create' -d 'Create a new store, optionally protected by a passphrase.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'info' -d 'Show the store\'s format, item counts, lock state, KDF parameters and files.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'list' -d 'List items (attributes only) matching the filters.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'get' -d 'Print one item\'s secret (raw), or the item as JSON.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'add' -d 'Add an item.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'update' -d 'Change an item\'s secret or attributes.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'delete' -d 'Delete an item, or every matching item with --all.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'generate' -d 'Generate a random password and store it as an item.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'edit' -d 'Edit one item\'s secret in $VISUAL or $EDITOR.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'exec' -d 'Run a command with secrets in its environment.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'lock' -d 'Lock the store: end a shared unlock (`unlock --for`); afterFirstUnlock items become unreadable again until the next unlock.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'unlock' -d 'Unlock the store for your processes: afterFirstUnlock items until reboot or `secstore lock`; with --for, every item for that long.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'passphrase' -d 'Set, change or remove the store\'s passphrase.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'export' -d 'Write an encrypted backup of the store (…ThisDeviceOnly items are left out), or with --plaintext an env, JSON or CSV file.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'import' -d 'Restore the items of a backup made by `secstore export`, or import an env, JSON or CSV file.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'verify' -d 'Check the store file and every item; list damaged items.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'identity' -d 'Show or reset the stable device identifier kept in the store.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'keyring' -d 'List or prune SecStore\'s entries in the kernel user keyring.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'sync' -d 'Sync synchronizable items with your other devices over etcd, end-to-end encrypted.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" passphrase' -l 'passphrase' -d 'Protect the new store with a passphrase, asked at the terminal.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" kdf-ops' -l 'kdf-ops' -d 'Argon2id passes (default 3, minimum 1).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" kdf-memory' -l 'kdf-memory' -d 'Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore info" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" refs' -l 'refs' -d 'Show each item\'s persistent reference.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" show-secrets' -l 'show-secrets' -d 'Also print each item\'s secret.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" glob' -l 'glob' -d 'Read --service and --account as shell patterns (*, ?, [a-z]; \\ escapes).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" format' -l 'format' -d 'table (aligned columns, the default), tsv (tab-separated, for cut and awk) or json (as --json).' -rfka 'table tsv json'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" no-headers' -l 'no-headers' -d 'Leave out the header row of table and tsv output.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" accessibility' -l 'accessibility' -d 'When the secret is readable: whenUnlocked (default), afterFirstUnlock, always, or a …ThisDeviceOnly variant; Apple\'s codes (ak, ck, …) work too.' -rfka 'whenUnlocked afterFirstUnlock always whenUnlockedThisDeviceOnly afterFirstUnlockThisDeviceOnly alwaysThisDeviceOnly whenPasscodeSetThisDeviceOnly'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" comment' -l 'comment' -d 'A comment.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" description' -l 'description' -d 'A kind shown to users, such as "application password".' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" update' -l 'update' -d 'Replace the item if it exists (its secret and the attributes given): add or replace in one call.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" value-stdin' -l 'value-stdin' -d 'Read the secret from standard input (all of it, bytes unchanged).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" value-file' -l 'value-file' -d 'Read the secret from a file (all of it, bytes unchanged).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" value' -l 'value' -d 'The secret as an argument. Other users can see it in the process list: prefer --value-stdin.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" prompt' -l 'prompt' -d 'Ask for the secret at the terminal, without echo.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" trim-newline' -l 'trim-newline' -d 'Remove one trailing newline from --value-stdin or --value-file input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" allow-empty' -l 'allow-empty' -d 'Accept an empty secret from --value-stdin or --value-file (otherwise an error: a closed or empty input is usually a mistake).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-account' -l 'new-account' -d 'A new account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-service' -l 'new-service' -d 'A new service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-server' -l 'new-server' -d 'A new server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-group' -l 'new-group' -d 'Move the items to another access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-label' -l 'new-label' -d 'A new label.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-accessibility' -l 'new-accessibility' -d 'A new accessibility.' -rfka 'whenUnlocked afterFirstUnlock always whenUnlockedThisDeviceOnly afterFirstUnlockThisDeviceOnly alwaysThisDeviceOnly whenPasscodeSetThisDeviceOnly'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-comment' -l 'new-comment' -d 'A new comment.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" new-description' -l 'new-description' -d 'A new description.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" all' -l 'all' -d 'Change every matching item (required when more than one matches).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" value-stdin' -l 'value-stdin' -d 'Read the secret from standard input (all of it, bytes unchanged).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" value-file' -l 'value-file' -d 'Read the secret from a file (all of it, bytes unchanged).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" value' -l 'value' -d 'The secret as an argument. Other users can see it in the process list: prefer --value-stdin.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" prompt' -l 'prompt' -d 'Ask for the secret at the terminal, without echo.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" trim-newline' -l 'trim-newline' -d 'Remove one trailing newline from --value-stdin or --value-file input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" allow-empty' -l 'allow-empty' -d 'Accept an empty secret from --value-stdin or --value-file (otherwise an error: a closed or empty input is usually a mistake).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore update" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" all' -l 'all' -d 'Delete every matching item (required when more than one matches).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" y yes' -s 'y' -l 'yes' -d 'Do not ask for confirmation at a terminal.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" dry-run' -l 'dry-run' -d 'Show what would be deleted; delete nothing.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" glob' -l 'glob' -d 'Read --service and --account as shell patterns (*, ?, [a-z]; \\ escapes).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" damaged' -l 'damaged' -d 'With --ref: delete the item without opening it (for damaged items).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" accessibility' -l 'accessibility' -d 'When the secret is readable: whenUnlocked (default), afterFirstUnlock, always, or a …ThisDeviceOnly variant; Apple\'s codes (ak, ck, …) work too.' -rfka 'whenUnlocked afterFirstUnlock always whenUnlockedThisDeviceOnly afterFirstUnlockThisDeviceOnly alwaysThisDeviceOnly whenPasscodeSetThisDeviceOnly'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" comment' -l 'comment' -d 'A comment.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" description' -l 'description' -d 'A kind shown to users, such as "application password".' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" l length' -s 'l' -l 'length' -d 'How many characters (1 to 4096; default 32).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" classes' -l 'classes' -d 'The character classes, comma-separated: lower, upper, digits, symbols, or letters, alphanumeric, all (default: all).' -rfka 'lower,upper,digits,symbols lower,upper,digits digits'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" no-symbols' -l 'no-symbols' -d 'Letters and digits only (as --classes lower,upper,digits).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" exclude' -l 'exclude' -d 'Characters never to use, such as the look-alikes Il1O0.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" print' -l 'print' -d 'Also print the password on standard output (in JSON: "secret").'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" update' -l 'update' -d 'Replace the item\'s secret if it exists (rotate it): add or replace in one call.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore generate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" allow-empty' -l 'allow-empty' -d 'Accept an empty secret (otherwise an empty file changes nothing).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec"' -s 'e' -l 'env' -d 'Set NAME to the secret REFERENCE names: service/account, service, or ref:HEX (repeatable).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec"' -l 'env-file' -d 'Read NAME=REFERENCE lines from a file (repeatable; # comments and blank lines are skipped).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore exec" -ge 1' -F
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore exec" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore lock" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore lock" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore lock" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore lock" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore lock" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore lock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" for' -l 'for' -d 'Share every passphrase-protected class with your processes for this long (90s, 30m, 8h, 2d).' -rfka '90s 30m 8h 1d'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore unlock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore passphrase" -eq 1' -fa 'set' -d 'Protect a store that has no passphrase.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore passphrase" -eq 1' -fa 'change' -d 'Replace the store\'s passphrase.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore passphrase" -eq 1' -fa 'remove' -d 'Remove the store\'s passphrase (deletes whenPasscodeSetThisDeviceOnly items).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" kdf-ops' -l 'kdf-ops' -d 'Argon2id passes (default 3, minimum 1).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" kdf-memory' -l 'kdf-memory' -d 'Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" new-passphrase-stdin' -l 'new-passphrase-stdin' -d 'Read the new passphrase from the next line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" new-passphrase-file' -l 'new-passphrase-file' -d 'Read the new passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" new-passphrase-env' -l 'new-passphrase-env' -d 'Read the new passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" kdf-ops' -l 'kdf-ops' -d 'Argon2id passes (default 3, minimum 1).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" kdf-memory' -l 'kdf-memory' -d 'Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase change" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" y yes' -s 'y' -l 'yes' -d 'Do not ask before deleting whenPasscodeSetThisDeviceOnly items at a terminal.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" dry-run' -l 'dry-run' -d 'Say how many items would be deleted; change nothing (no passphrase needed).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore passphrase remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore export" -eq 1' -F
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" force' -l 'force' -d 'Replace the file if it exists.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" skip-damaged' -l 'skip-damaged' -d 'Leave out items that fail authentication (a partial backup; exit status 7), instead of exporting nothing.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" format' -l 'format' -d 'backup (encrypted, the default), or plaintext env, json or csv (with --plaintext).' -rfka 'backup env json csv'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" plaintext' -l 'plaintext' -d 'Confirm that --format env, json or csv writes the secrets unencrypted.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" class' -l 'class' -d 'The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command\'s default (genp; list and delete --all: both).' -rfka 'genp inet'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" s service' -s 's' -l 'service' -d 'The service (generic passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" a account' -s 'a' -l 'account' -d 'The account.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" g group' -s 'g' -l 'group' -d 'The access group.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" label' -l 'label' -d 'The label: a user-visible name.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" server' -l 'server' -d 'The server (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" port' -l 'port' -d 'The port (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" protocol' -l 'protocol' -d 'The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" path' -l 'path' -d 'The path (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" security-domain' -l 'security-domain' -d 'The security domain (internet passwords).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" authentication-type' -l 'authentication-type' -d 'The authentication type (internet passwords), a four-character code such as dflt or form.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export"' -l 'attribute' -d 'A free-form attribute NAME=VALUE (repeatable): a new item\'s, or a filter matched exactly (the Secret Service\'s lookup attributes).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" synchronizable' -l 'synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" no-synchronizable' -l 'no-synchronizable' -d 'Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle\'s devices (`secstore sync`), or a filter; without it, a search matches both.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" ref' -l 'ref' -d 'One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" backup-passphrase-stdin' -l 'backup-passphrase-stdin' -d 'Read the backup passphrase from the next line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" backup-passphrase-file' -l 'backup-passphrase-file' -d 'Read the backup passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" backup-passphrase-env' -l 'backup-passphrase-env' -d 'Read the backup passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" kdf-ops' -l 'kdf-ops' -d 'Argon2id passes (default 3, minimum 1).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" kdf-memory' -l 'kdf-memory' -d 'Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore import" -eq 1' -F
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" on-conflict' -l 'on-conflict' -d 'What to do with an item already in the store: skip, replace or fail.' -rfka 'skip replace fail'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" format' -l 'format' -d 'backup (encrypted, the default), or plaintext env, json or csv.' -rfka 'backup env json csv'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" s service' -s 's' -l 'service' -d '--format env: the service of every item (each NAME is an account).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" g group' -s 'g' -l 'group' -d 'Plaintext formats: the access group of items that name none (default: as `add`).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" accessibility' -l 'accessibility' -d 'Plaintext formats: the accessibility of items that name none (default whenUnlocked).' -rfka 'whenUnlocked afterFirstUnlock always whenUnlockedThisDeviceOnly afterFirstUnlockThisDeviceOnly alwaysThisDeviceOnly whenPasscodeSetThisDeviceOnly'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" dry-run' -l 'dry-run' -d 'Plaintext formats: report what would be added, skipped and replaced; change nothing.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" backup-passphrase-stdin' -l 'backup-passphrase-stdin' -d 'Read the backup passphrase from the next line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" backup-passphrase-file' -l 'backup-passphrase-file' -d 'Read the backup passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" backup-passphrase-env' -l 'backup-passphrase-env' -d 'Read the backup passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" accept-current-items' -l 'accept-current-items' -d 'When the items no longer match the store\'s digest and nothing else is wrong, record them as they are.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore verify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore identity" -eq 1' -fa 'show' -d 'Print the device identifier, creating it on first use.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore identity" -eq 1' -fa 'reset' -d 'Replace the device identifier with a new random one.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" g group' -s 'g' -l 'group' -d 'The access group whose identifier to use.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" lowercase' -l 'lowercase' -d 'Print the UUID in lowercase (as uuidgen and systemd do).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" g group' -s 'g' -l 'group' -d 'The access group whose identifier to use.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" lowercase' -l 'lowercase' -d 'Print the UUID in lowercase (as uuidgen and systemd do).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" y yes' -s 'y' -l 'yes' -d 'Do not ask for confirmation at a terminal.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" dry-run' -l 'dry-run' -d 'Say what would be replaced; change nothing.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" passphrase-stdin' -l 'passphrase-stdin' -d 'Read the store passphrase from the first line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" passphrase-file' -l 'passphrase-file' -d 'Read the store passphrase from the first line of a file.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" passphrase-env' -l 'passphrase-env' -d 'Read the store passphrase from this environment variable (an explicit opt-in).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore identity reset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore keyring" -eq 1' -fa 'list' -d 'Show SecStore\'s entries in your kernel keyring, by store, and whether each store still exists.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore keyring" -eq 1' -fa 'prune' -d 'Remove the kernel keyring entries of stores that no longer exist (--all: of every store).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring list" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring list" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring list" format' -l 'format' -d 'table (aligned columns, the default), tsv (tab-separated, for cut and awk) or json (as --json).' -rfka 'table tsv json'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring list" no-headers' -l 'no-headers' -d 'Leave out the header row of table and tsv output.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring list" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring prune" all' -l 'all' -d 'Remove every SecStore entry, of every store (as `secstore lock` on each).'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring prune" dry-run' -l 'dry-run' -d 'Say what would be removed; remove nothing.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring prune" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring prune" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring prune" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore keyring prune" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore sync" -eq 1' -fa 'init' -d 'Create a sync circle in etcd with this store as its first device, and push its synchronizable items.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore sync" -eq 1' -fa 'join' -d 'Ask to join the sync circle in etcd: prints a code (the last line of its output) to approve on a member device.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore sync" -eq 1' -fa 'approve' -d 'Approve the device whose `sync join` printed a code: hand it the circle\'s keys.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore sync" -eq 1' -fa 'remove' -d 'Remove a device from the circle: new keys for the others, so it cannot read anything written from now on.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore sync" -eq 1' -fa 'status' -d 'Show this device, its circle\'s devices, the last revision applied and the changes waiting to be pushed.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore sync" -eq 1' -fa 'now' -d 'Sync once: apply what other devices wrote, then push this store\'s changes.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_positional "secstore sync" -eq 1' -fa 'daemon' -d 'Sync in the foreground until stopped: watch etcd and push local changes as they are made.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" endpoints' -l 'endpoints' -d 'etcd\'s client URLs, comma-separated (each member of the cluster).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" prefix' -l 'prefix' -d 'The etcd key prefix the circle lives under.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" user' -l 'user' -d 'etcd\'s user, when etcd has authentication on.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" password-file' -l 'password-file' -d 'A file whose first line is etcd\'s password (else $SECSTORE_ETCD_PASSWORD); a regular file must be private to you (mode 0600 or 0400), a stream such as <(pass etcd) is read as it comes.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" ca-file' -l 'ca-file' -d 'TLS: a PEM file of the certificate authorities that sign etcd\'s certificates (default: the system\'s).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" cert-file' -l 'cert-file' -d 'TLS: a client certificate (PEM) for etcd\'s --client-cert-auth.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" key-file' -l 'key-file' -d 'TLS: the client certificate\'s private key (PEM).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" endpoints' -l 'endpoints' -d 'etcd\'s client URLs, comma-separated (each member of the cluster).' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" prefix' -l 'prefix' -d 'The etcd key prefix the circle lives under.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" user' -l 'user' -d 'etcd\'s user, when etcd has authentication on.' -rfka ''
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" password-file' -l 'password-file' -d 'A file whose first line is etcd\'s password (else $SECSTORE_ETCD_PASSWORD); a regular file must be private to you (mode 0600 or 0400), a stream such as <(pass etcd) is read as it comes.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" ca-file' -l 'ca-file' -d 'TLS: a PEM file of the certificate authorities that sign etcd\'s certificates (default: the system\'s).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" cert-file' -l 'cert-file' -d 'TLS: a client certificate (PEM) for etcd\'s --client-cert-auth.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" key-file' -l 'key-file' -d 'TLS: the client certificate\'s private key (PEM).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync join" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync approve" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync approve" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync approve" code-stdin' -l 'code-stdin' -d 'Read the code from the next line of standard input.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync approve" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync approve" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync approve" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync approve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync remove" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync remove" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync remove" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync remove" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync remove" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync status" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync status" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync status" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync status" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync status" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync now" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync now" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync now" json' -l 'json' -d 'Print JSON (shapes documented in docs/cli.md) instead of text.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync now" q quiet' -s 'q' -l 'quiet' -d 'Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync now" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync now" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync daemon" store' -l 'store' -d 'The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync daemon" device-key' -l 'device-key' -d 'The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.' -rF
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync daemon" version' -l 'version' -d 'Show the version.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore sync daemon" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'secstore' -n '__secstore_should_offer_completions_for_flags_or_options "secstore help" version' -l 'version' -d 'Show the version.'
