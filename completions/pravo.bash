# bash completion for pravo.
# Generated from pravo's command tree by `pravo completion bash`; do not edit
# (npm run completions).
# Install: source it from ~/.bashrc (it needs only bash 4 or newer), or, with
# the bash-completion package, copy it
# to ~/.local/share/bash-completion/completions/pravo.

# The subcommands of a command path ("" is pravo itself).
__pravo_commands() {
  case "$1" in
    '') echo search doc open cite answer catalog usage config batch login logout keys account sandbox completion help ;;
    'answer') echo wait show list ;;
    'catalog') echo source-types courts judges help ;;
    'config') echo set-key show set unset path help ;;
    'keys') echo create list revoke rotate help ;;
    'account') echo overages ;;
    'sandbox') echo serve token import help ;;
  esac
}

# The options of a command path.
__pravo_options() {
  case "$1" in
    '') echo -V --version --profile --no-color --no-pager -h --help ;;
    'search') echo -t --type -c --court -j --judge --from --to -n --max-results --timeout --json --format --out --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'doc') echo --collection --article --paragraph --json --format --out --refresh --timeout --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'open') echo --collection --print --json --timeout --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'cite') echo --json -y --yes --refresh --timeout --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'answer') echo -t --type -c --court -j --judge --from --to -n --max-results --no-wait --timeout --verify -y --yes --json --format --out --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'answer wait') echo --verify -y --yes --json --format --out --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'answer show') echo --verify -y --yes --json --format --out --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'answer list') echo -n --limit --json -h --help --profile --no-color --no-pager ;;
    'catalog') echo -h --help --profile --no-color --no-pager ;;
    'catalog source-types') echo --refresh --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'catalog courts') echo --refresh --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'catalog judges') echo --court --search --limit --refresh --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'catalog help') echo  ;;
    'usage') echo --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'config') echo -h --help --profile --no-color --no-pager ;;
    'config set-key') echo --stdin --json -h --help --profile --no-color --no-pager ;;
    'config show') echo --json -h --help --profile --no-color --no-pager ;;
    'config set') echo --json -h --help --profile --no-color --no-pager ;;
    'config unset') echo --json -h --help --profile --no-color --no-pager ;;
    'config path') echo --json -h --help --profile --no-color --no-pager ;;
    'config help') echo  ;;
    'batch') echo -o --out --fetch-docs --answers --concurrency --allow-overage -y --yes --dry-run --retry-interrupted --restart --timeout --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'login') echo --stdin --no-verify --status --json -h --help --profile --no-color --no-pager ;;
    'logout') echo --json -h --help --profile --no-color --no-pager ;;
    'keys') echo -h --help --profile --no-color --no-pager ;;
    'keys create') echo --name --save-to-profile --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'keys list') echo --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'keys revoke') echo -y --yes --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'keys rotate') echo --name -y --yes --json -h --help --profile --no-color --no-pager ;;
    'keys help') echo  ;;
    'account') echo --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'account overages') echo --allow --limit --deny -y --yes --json --sandbox --corpus --data-dir -h --help --profile --no-color --no-pager ;;
    'sandbox') echo -h --help --profile --no-color --no-pager ;;
    'sandbox serve') echo --host --port --corpus --data-dir --quota --search-quota --retrieval-quota --answers-quota --overage --answer-delay --answer-failure-rate --auth-cache-ttl --search-workers --save-to-profile --json -h --help --profile --no-color --no-pager ;;
    'sandbox token') echo --data-dir --expires-in --save-to-profile --json -h --help --profile --no-color --no-pager ;;
    'sandbox import') echo -o --out --id --concurrency --json -h --help --profile --no-color --no-pager ;;
    'sandbox help') echo  ;;
    'completion') echo -h --help --profile --no-color --no-pager ;;
    'help') echo  ;;
  esac
}

# How the value of option $2 of command path $1 completes; nothing when the option takes no value.
__pravo_option_value() {
  case "$1 $2" in
    ' --profile') echo 'dynamic:profiles' ;;
    'search -t') echo 'dynamic:source-types' ;;
    'search --type') echo 'dynamic:source-types' ;;
    'search -c') echo 'dynamic:courts' ;;
    'search --court') echo 'dynamic:courts' ;;
    'search -j') echo 'text' ;;
    'search --judge') echo 'text' ;;
    'search --from') echo 'text' ;;
    'search --to') echo 'text' ;;
    'search -n') echo 'text' ;;
    'search --max-results') echo 'text' ;;
    'search --timeout') echo 'text' ;;
    'search --format') echo 'choices:md markdown' ;;
    'search --out') echo 'file' ;;
    'search --corpus') echo 'file' ;;
    'search --data-dir') echo 'directory' ;;
    'search --profile') echo 'dynamic:profiles' ;;
    'doc --collection') echo 'text' ;;
    'doc --article') echo 'text' ;;
    'doc --paragraph') echo 'text' ;;
    'doc --format') echo 'choices:md markdown' ;;
    'doc --out') echo 'file' ;;
    'doc --timeout') echo 'text' ;;
    'doc --corpus') echo 'file' ;;
    'doc --data-dir') echo 'directory' ;;
    'doc --profile') echo 'dynamic:profiles' ;;
    'open --collection') echo 'text' ;;
    'open --timeout') echo 'text' ;;
    'open --corpus') echo 'file' ;;
    'open --data-dir') echo 'directory' ;;
    'open --profile') echo 'dynamic:profiles' ;;
    'cite --timeout') echo 'text' ;;
    'cite --corpus') echo 'file' ;;
    'cite --data-dir') echo 'directory' ;;
    'cite --profile') echo 'dynamic:profiles' ;;
    'answer -t') echo 'dynamic:source-types' ;;
    'answer --type') echo 'dynamic:source-types' ;;
    'answer -c') echo 'dynamic:courts' ;;
    'answer --court') echo 'dynamic:courts' ;;
    'answer -j') echo 'text' ;;
    'answer --judge') echo 'text' ;;
    'answer --from') echo 'text' ;;
    'answer --to') echo 'text' ;;
    'answer -n') echo 'text' ;;
    'answer --max-results') echo 'text' ;;
    'answer --timeout') echo 'text' ;;
    'answer --format') echo 'choices:md markdown' ;;
    'answer --out') echo 'file' ;;
    'answer --corpus') echo 'file' ;;
    'answer --data-dir') echo 'directory' ;;
    'answer --profile') echo 'dynamic:profiles' ;;
    'answer wait --format') echo 'choices:md markdown' ;;
    'answer wait --out') echo 'file' ;;
    'answer wait --corpus') echo 'file' ;;
    'answer wait --data-dir') echo 'directory' ;;
    'answer wait --profile') echo 'dynamic:profiles' ;;
    'answer show --format') echo 'choices:md markdown' ;;
    'answer show --out') echo 'file' ;;
    'answer show --corpus') echo 'file' ;;
    'answer show --data-dir') echo 'directory' ;;
    'answer show --profile') echo 'dynamic:profiles' ;;
    'answer list -n') echo 'text' ;;
    'answer list --limit') echo 'text' ;;
    'answer list --profile') echo 'dynamic:profiles' ;;
    'catalog --profile') echo 'dynamic:profiles' ;;
    'catalog source-types --corpus') echo 'file' ;;
    'catalog source-types --data-dir') echo 'directory' ;;
    'catalog source-types --profile') echo 'dynamic:profiles' ;;
    'catalog courts --corpus') echo 'file' ;;
    'catalog courts --data-dir') echo 'directory' ;;
    'catalog courts --profile') echo 'dynamic:profiles' ;;
    'catalog judges --court') echo 'dynamic:courts' ;;
    'catalog judges --search') echo 'text' ;;
    'catalog judges --limit') echo 'text' ;;
    'catalog judges --corpus') echo 'file' ;;
    'catalog judges --data-dir') echo 'directory' ;;
    'catalog judges --profile') echo 'dynamic:profiles' ;;
    'usage --corpus') echo 'file' ;;
    'usage --data-dir') echo 'directory' ;;
    'usage --profile') echo 'dynamic:profiles' ;;
    'config --profile') echo 'dynamic:profiles' ;;
    'config set-key --profile') echo 'dynamic:profiles' ;;
    'config show --profile') echo 'dynamic:profiles' ;;
    'config set --profile') echo 'dynamic:profiles' ;;
    'config unset --profile') echo 'dynamic:profiles' ;;
    'config path --profile') echo 'dynamic:profiles' ;;
    'batch -o') echo 'file' ;;
    'batch --out') echo 'file' ;;
    'batch --fetch-docs') echo 'text' ;;
    'batch --concurrency') echo 'text' ;;
    'batch --timeout') echo 'text' ;;
    'batch --corpus') echo 'file' ;;
    'batch --data-dir') echo 'directory' ;;
    'batch --profile') echo 'dynamic:profiles' ;;
    'login --profile') echo 'dynamic:profiles' ;;
    'logout --profile') echo 'dynamic:profiles' ;;
    'keys --profile') echo 'dynamic:profiles' ;;
    'keys create --name') echo 'text' ;;
    'keys create --save-to-profile') echo 'dynamic:profiles' ;;
    'keys create --corpus') echo 'file' ;;
    'keys create --data-dir') echo 'directory' ;;
    'keys create --profile') echo 'dynamic:profiles' ;;
    'keys list --corpus') echo 'file' ;;
    'keys list --data-dir') echo 'directory' ;;
    'keys list --profile') echo 'dynamic:profiles' ;;
    'keys revoke --corpus') echo 'file' ;;
    'keys revoke --data-dir') echo 'directory' ;;
    'keys revoke --profile') echo 'dynamic:profiles' ;;
    'keys rotate --name') echo 'text' ;;
    'keys rotate --profile') echo 'dynamic:profiles' ;;
    'account --corpus') echo 'file' ;;
    'account --data-dir') echo 'directory' ;;
    'account --profile') echo 'dynamic:profiles' ;;
    'account overages --limit') echo 'text' ;;
    'account overages --corpus') echo 'file' ;;
    'account overages --data-dir') echo 'directory' ;;
    'account overages --profile') echo 'dynamic:profiles' ;;
    'sandbox --profile') echo 'dynamic:profiles' ;;
    'sandbox serve --host') echo 'text' ;;
    'sandbox serve --port') echo 'text' ;;
    'sandbox serve --corpus') echo 'file' ;;
    'sandbox serve --data-dir') echo 'directory' ;;
    'sandbox serve --quota') echo 'text' ;;
    'sandbox serve --search-quota') echo 'text' ;;
    'sandbox serve --retrieval-quota') echo 'text' ;;
    'sandbox serve --answers-quota') echo 'text' ;;
    'sandbox serve --overage') echo 'choices:off' ;;
    'sandbox serve --answer-delay') echo 'text' ;;
    'sandbox serve --answer-failure-rate') echo 'text' ;;
    'sandbox serve --auth-cache-ttl') echo 'text' ;;
    'sandbox serve --search-workers') echo 'text' ;;
    'sandbox serve --save-to-profile') echo 'dynamic:profiles' ;;
    'sandbox serve --profile') echo 'dynamic:profiles' ;;
    'sandbox token --data-dir') echo 'directory' ;;
    'sandbox token --expires-in') echo 'text' ;;
    'sandbox token --save-to-profile') echo 'dynamic:profiles' ;;
    'sandbox token --profile') echo 'dynamic:profiles' ;;
    'sandbox import -o') echo 'file' ;;
    'sandbox import --out') echo 'file' ;;
    'sandbox import --id') echo 'text' ;;
    'sandbox import --concurrency') echo 'text' ;;
    'sandbox import --profile') echo 'dynamic:profiles' ;;
    'completion --profile') echo 'dynamic:profiles' ;;
  esac
}

# How argument $2 (counted from 0) of command path $1 completes.
__pravo_argument_value() {
  case "$1 $2" in
    'search '0) echo 'text' ;;
    'doc '0) echo 'dynamic:results' ;;
    'open '0) echo 'dynamic:results' ;;
    'cite '0) echo 'file' ;;
    'answer '0) echo 'text' ;;
    'answer wait '0) echo 'dynamic:unfinished-jobs' ;;
    'answer show '0) echo 'dynamic:jobs' ;;
    'catalog help '0) echo 'choices:source-types courts judges' ;;
    'config set-key '0) echo 'text' ;;
    'config set '0) echo 'choices:base-url auth-header sandbox sandbox-corpus' ;;
    'config set '1) echo 'dynamic:setting-values' ;;
    'config unset '0) echo 'choices:base-url auth-header sandbox sandbox-corpus api-key' ;;
    'config help '0) echo 'choices:set-key show set unset path' ;;
    'batch '0) echo 'file' ;;
    'login '0) echo 'text' ;;
    'keys revoke '0) echo 'dynamic:keys' ;;
    'keys help '0) echo 'choices:create list revoke rotate' ;;
    'sandbox import '0) echo 'directory' ;;
    'sandbox help '0) echo 'choices:serve token import' ;;
    'completion '0) echo 'choices:bash zsh fish' ;;
    'help '0) echo 'choices:search doc open cite answer catalog usage config batch login logout keys account sandbox completion' ;;
    'search '[0-9]*) echo 'text' ;;
    'answer '[0-9]*) echo 'text' ;;
  esac
}

# Whether the values $2... start alike (the same first letter) but not all with $1: readline would then put what they
# start with in place of the typed text. (Called with nocasematch on: case is ignored.)
__pravo_would_replace() {
  local typed=$1 first=${2:0:1} value replaced=1
  shift
  for value; do
    [[ ${value:0:1} == "$first" ]] || return 1
    [[ $value == "$typed"* ]] || replaced=0
  done
  ((replaced == 0))
}

# Puts into COMPREPLY the values of kind $1 (see __pravo_option_value) that fit $2.
__pravo_values() {
  local how=$1 cur=$2 line value
  case $how in
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    directory) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    choices:*) COMPREPLY=($(compgen -W "${how#choices:}" -- "$cur")) ;;
    dynamic:*)
      COMPREPLY=()
      # The typed word without the shell's quoting, to compare with the values; case is ignored (nocasematch, restored
      # after: bash's own, as everything here, so that the script needs no bash-completion package).
      cur=${cur#[\"\']}
      cur=${cur//\\/}
      local nocase
      nocase=$(shopt -p nocasematch)
      shopt -s nocasematch
      while IFS= read -r line; do
        if [[ $line == :file ]]; then eval "$nocase"; __pravo_values file "$2"; return; fi
        value=${line%%$'\t'*}
        # A value fits when it, or any of its words, starts with the typed text: Пловд offers every court of Пловдив.
        [[ -n $value && ( $value == "$cur"* || " $value" == *[[:space:]\(–-]"$cur"* ) ]] || continue
        COMPREPLY+=("$value")
      done < <("${COMP_WORDS[0]}" __complete "${how#dynamic:}" "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)
      # Readline replaces the typed text with what all values start with: when that is not the typed text (Оряхов fits
      # "Районен съд – Оряхово" and "Районен съд – Горна Оряховица"), the typed text is offered too, so that it stays
      # on the line and the values are listed.
      if ((${#COMPREPLY[@]} > 1)) && [[ -n $cur ]] && __pravo_would_replace "$cur" "${COMPREPLY[@]}"; then COMPREPLY+=("$cur"); fi
      eval "$nocase"
      # Values are offered as they are and listed so (a court's name without backslashes); readline quotes the one it
      # inserts as it quotes file names: inside the quote the user opened ("Окръжен съд – Пловдив"), else with
      # backslashes.
      ((${#COMPREPLY[@]})) && compopt -o filenames 2>/dev/null
      ;;
  esac
}

_pravo() {
  local cur=${COMP_WORDS[COMP_CWORD]} cmd_path='' position=0 expect='' word i commands
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    # --name=value: bash splits it at "=" (COMP_WORDBREAKS); the value belongs to the option before the "=".
    if [[ $word == = ]]; then continue; fi
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $word in
      --) ;;
      -?*=*) ;;
      -?*) [[ -n $(__pravo_option_value "$cmd_path" "$word") ]] && expect=$word ;;
      *)
        if ((position == 0)) && [[ " $(__pravo_commands "$cmd_path") " == *" $word "* ]]; then
          cmd_path=${cmd_path:+$cmd_path }$word
        else
          position=$((position + 1))
        fi
        ;;
    esac
  done
  if [[ $cur == = && -n $expect ]]; then cur=''; fi
  if [[ -n $expect ]]; then
    __pravo_values "$(__pravo_option_value "$cmd_path" "$expect")" "$cur"
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(__pravo_options "$cmd_path")" -- "$cur"))
  else
    commands=$(__pravo_commands "$cmd_path")
    if ((position == 0)) && [[ -n $commands ]]; then
      COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    else
      __pravo_values "$(__pravo_argument_value "$cmd_path" "$position")" "$cur"
    fi
  fi
}

complete -F _pravo pravo
