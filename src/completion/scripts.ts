/**
 * The completion scripts of bash, zsh and fish, generated from the completion tree (`./tree.ts`). Each script holds
 * the tree as four lookup functions (the subcommands of a command path, its options, how an option's value completes,
 * how its N-th argument completes) and one small interpreter that walks the words typed so far the way commander
 * parses them: a word naming a subcommand of the current path (as the first operand) descends, an option that takes a
 * value swallows the next word, other words are arguments. Values from local state (profiles, catalogs, jobs, keys,
 * results) come from `pravo __complete <kind> <words...>` (`./dynamic.ts`); everything else is answered by the script
 * alone, without starting node. `completions/` holds the output of {@link completionScript} for each shell, and a test
 * regenerates them and compares.
 */
import { allNodes, type CompletionNode, type Shell, type ValueSource } from './tree.js';

/** Descriptions shown by zsh and fish are cut to this many characters. */
const DESCRIPTION_MAX = 70;

/** The script for `shell`. */
export function completionScript(shell: Shell, root: CompletionNode): string {
  switch (shell) {
    case 'bash':
      return bashScript(root);
    case 'zsh':
      return zshScript(root);
    case 'fish':
      return fishScript(root);
  }
}

/** The file name the script of `shell` has in `completions/` (and where each shell looks for it). */
export function completionFileName(shell: Shell): string {
  return { bash: 'pravo.bash', zsh: '_pravo', fish: 'pravo.fish' }[shell];
}

/** How a value completes, as the scripts spell it: `text`, `file`, `directory`, `choices:A B`, `dynamic:KIND`. */
export function valueWord(source: ValueSource): string {
  switch (source.kind) {
    case 'choices':
      return `choices:${source.values.join(' ')}`;
    case 'dynamic':
      return `dynamic:${source.from}`;
    default:
      return source.kind;
  }
}

/** The first sentence of a description, cut to {@link DESCRIPTION_MAX} characters, on one line. */
function shortDescription(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const first = oneLine.split(/(?<=[.:;])\s(?=\p{Lu})|\s\(/u)[0] ?? oneLine;
  const sentence = first.replace(/[.:;]$/, '');
  return sentence.length <= DESCRIPTION_MAX ? sentence : `${sentence.slice(0, DESCRIPTION_MAX - 1)}…`;
}

/** Per option flag of a node, how its value completes (only options that take one). */
function valuedFlags(node: CompletionNode): [string, string][] {
  return node.options.flatMap((option) => (option.value ? option.flags.map((flag): [string, string] => [flag, valueWord(option.value!)]) : []));
}

/**
 * How each argument position completes, as `[command path, position, value word]`: every exact position of every
 * command first, then `[path, '*', word]` for each variadic argument (a query), which takes every later position.
 * Shells take the first matching case, so the catch-alls must come last.
 */
function argumentCases(nodes: readonly CompletionNode[]): [string, number | '*', string][] {
  const exact = nodes.flatMap((node) => node.arguments.map((argument, index): [string, number | '*', string] => [node.path, index, valueWord(argument.value)]));
  const rest = nodes.flatMap((node) => node.arguments.filter((a) => a.variadic).map((argument): [string, number | '*', string] => [node.path, '*', valueWord(argument.value)]));
  return [...exact, ...rest];
}

/**
 * The interpreters below are `String.raw` templates in which the shells' `${` is written `$\{` (a template would
 * substitute it) and restored by `replaceAll`.
 */
const GENERATED = '\n# Generated from pravo\'s command tree by `pravo completion SHELL`; do not edit\n# (npm run completions).';

// ---------------------------------------------------------------------------------------------------------------- bash

/** A single-quoted bash/zsh word. */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function bashScript(root: CompletionNode): string {
  const nodes = allNodes(root);
  const lines: string[] = [];
  lines.push(`# bash completion for pravo.${GENERATED.replace('SHELL', 'bash')}`);
  lines.push('# Install: source it from ~/.bashrc (it needs only bash 4 or newer), or, with');
  lines.push('# the bash-completion package, copy it');
  lines.push('# to ~/.local/share/bash-completion/completions/pravo.');
  lines.push('');
  lines.push('# The subcommands of a command path ("" is pravo itself).');
  lines.push('__pravo_commands() {');
  lines.push('  case "$1" in');
  for (const node of nodes.filter((n) => n.commands.length > 0)) {
    lines.push(`    ${sq(node.path)}) echo ${node.commands.map((c) => c.name).join(' ')} ;;`);
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# The options of a command path.');
  lines.push('__pravo_options() {');
  lines.push('  case "$1" in');
  for (const node of nodes) {
    lines.push(`    ${sq(node.path)}) echo ${node.options.flatMap((o) => o.flags).join(' ')} ;;`);
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# How the value of option $2 of command path $1 completes; nothing when the option takes no value.');
  lines.push('__pravo_option_value() {');
  lines.push('  case "$1 $2" in');
  for (const node of nodes) {
    for (const [flag, word] of valuedFlags(node)) lines.push(`    ${sq(`${node.path} ${flag}`)}) echo ${sq(word)} ;;`);
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# How argument $2 (counted from 0) of command path $1 completes.');
  lines.push('__pravo_argument_value() {');
  lines.push('  case "$1 $2" in');
  // Variadic arguments (a query) take every later position: after all the exact positions, as the first match wins.
  for (const [path, index, word] of argumentCases(nodes)) lines.push(`    ${sq(`${path} `)}${index === '*' ? '[0-9]*' : index}) echo ${sq(word)} ;;`);
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push(BASH_INTERPRETER);
  return `${lines.join('\n')}\n`;
}

const BASH_INTERPRETER = String.raw`# Whether the values $2... start alike (the same first letter) but not all with $1: readline would then put what they
# start with in place of the typed text. (Called with nocasematch on: case is ignored.)
__pravo_would_replace() {
  local typed=$1 first=$\{2:0:1} value replaced=1
  shift
  for value; do
    [[ $\{value:0:1} == "$first" ]] || return 1
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
    choices:*) COMPREPLY=($(compgen -W "$\{how#choices:}" -- "$cur")) ;;
    dynamic:*)
      COMPREPLY=()
      # The typed word without the shell's quoting, to compare with the values; case is ignored (nocasematch, restored
      # after: bash's own, as everything here, so that the script needs no bash-completion package).
      cur=$\{cur#[\"\']}
      cur=$\{cur//\\/}
      local nocase
      nocase=$(shopt -p nocasematch)
      shopt -s nocasematch
      while IFS= read -r line; do
        if [[ $line == :file ]]; then eval "$nocase"; __pravo_values file "$2"; return; fi
        value=$\{line%%$'\t'*}
        # A value fits when it, or any of its words, starts with the typed text: Пловд offers every court of Пловдив.
        [[ -n $value && ( $value == "$cur"* || " $value" == *[[:space:]\(–-]"$cur"* ) ]] || continue
        COMPREPLY+=("$value")
      done < <("$\{COMP_WORDS[0]}" __complete "$\{how#dynamic:}" "$\{COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)
      # Readline replaces the typed text with what all values start with: when that is not the typed text (Оряхов fits
      # "Районен съд – Оряхово" and "Районен съд – Горна Оряховица"), the typed text is offered too, so that it stays
      # on the line and the values are listed.
      if (($\{#COMPREPLY[@]} > 1)) && [[ -n $cur ]] && __pravo_would_replace "$cur" "$\{COMPREPLY[@]}"; then COMPREPLY+=("$cur"); fi
      eval "$nocase"
      # Values are offered as they are and listed so (a court's name without backslashes); readline quotes the one it
      # inserts as it quotes file names: inside the quote the user opened ("Окръжен съд – Пловдив"), else with
      # backslashes.
      (($\{#COMPREPLY[@]})) && compopt -o filenames 2>/dev/null
      ;;
  esac
}

_pravo() {
  local cur=$\{COMP_WORDS[COMP_CWORD]} cmd_path='' position=0 expect='' word i commands
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=$\{COMP_WORDS[i]}
    # --name=value: bash splits it at "=" (COMP_WORDBREAKS); the value belongs to the option before the "=".
    if [[ $word == = ]]; then continue; fi
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $word in
      --) ;;
      -?*=*) ;;
      -?*) [[ -n $(__pravo_option_value "$cmd_path" "$word") ]] && expect=$word ;;
      *)
        if ((position == 0)) && [[ " $(__pravo_commands "$cmd_path") " == *" $word "* ]]; then
          cmd_path=$\{cmd_path:+$cmd_path }$word
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

complete -F _pravo pravo`.replaceAll('$\\{', '${');

// ----------------------------------------------------------------------------------------------------------------- zsh

/** A `name:description` entry of zsh's `_describe`, single-quoted (a `:` in the name escaped). */
function zshEntry(name: string, description: string): string {
  return sq(`${name.replace(/:/g, '\\:')}:${shortDescription(description)}`);
}

function zshScript(root: CompletionNode): string {
  const nodes = allNodes(root);
  const lines: string[] = [];
  lines.push('#compdef pravo');
  lines.push(`# zsh completion for pravo.${GENERATED.replace('SHELL', 'zsh')}`);
  lines.push('# Install: save it as _pravo in a directory of $fpath (before compinit runs),');
  lines.push('# or source it after compinit.');
  lines.push('');
  lines.push('# The subcommands of a command path, as name:description in $reply.');
  lines.push('__pravo_commands() {');
  lines.push('  reply=()');
  lines.push('  case $1 in');
  for (const node of nodes.filter((n) => n.commands.length > 0)) {
    lines.push(`    (${sq(node.path)}) reply=(${node.commands.map((c) => zshEntry(c.name, c.description)).join(' ')}) ;;`);
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# The options of a command path, as flag:description in $reply.');
  lines.push('__pravo_options() {');
  lines.push('  reply=()');
  lines.push('  case $1 in');
  for (const node of nodes) {
    const entries = node.options.flatMap((o) => o.flags.map((flag) => zshEntry(flag, o.description)));
    lines.push(`    (${sq(node.path)}) reply=(${entries.join(' ')}) ;;`);
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# How the value of option $2 of command path $1 completes, in $REPLY; empty when it takes no value.');
  lines.push('__pravo_option_value() {');
  lines.push("  REPLY=''");
  lines.push('  case "$1 $2" in');
  for (const node of nodes) {
    for (const [flag, word] of valuedFlags(node)) lines.push(`    (${sq(`${node.path} ${flag}`)}) REPLY=${sq(word)} ;;`);
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push('# How argument $2 (counted from 0) of command path $1 completes, in $REPLY.');
  lines.push('__pravo_argument_value() {');
  lines.push("  REPLY=''");
  lines.push('  case "$1 $2" in');
  for (const [path, index, word] of argumentCases(nodes)) lines.push(`    (${sq(`${path} `)}${index === '*' ? '[0-9]*' : index}) REPLY=${sq(word)} ;;`);
  lines.push('  esac');
  lines.push('}');
  lines.push('');
  lines.push(ZSH_INTERPRETER);
  return `${lines.join('\n')}\n`;
}

const ZSH_INTERPRETER = String.raw`# Offers the values of kind $1 (see __pravo_option_value).
__pravo_values() {
  local how=$1 line
  local -a values described
  case $how in
    (file) _files ;;
    (directory) _files -/ ;;
    (choices:*) values=($\{(s: :)$\{how#choices:}}); compadd -a values ;;
    (dynamic:*)
      values=($\{(f)"$("$\{words[1]}" __complete "$\{how#dynamic:}" "$\{(@)words[2,CURRENT-1]}" 2>/dev/null)"})
      if [[ $\{values[1]} == :file ]]; then _files; return; fi
      # A value fits when it, or any of its words, starts with the typed text, case ignored: Пловд offers every court
      # of Пловдив.
      local typed=$\{(Q)PREFIX} value
      local lower=$\{(L)typed} prefixed=1
      for line in $values; do
        value=$\{line%%$'\t'*}
        [[ -n $value && ( $\{(L)value} == "$lower"* || " $\{(L)value}" == *[[:space:]\(–-]"$lower"* ) ]] || continue
        [[ $value == "$typed"* ]] || prefixed=0
        if [[ $line == *$'\t'* ]]; then described+=("$\{value//:/\\:}:$\{line#*$'\t'}")
        else described+=("$\{value//:/\\:}"); fi
      done
      (( $\{#described} )) || return
      if (( prefixed )); then
        _describe -t values value described
      else
        # Values that fit by a later word (or in another case) replace the typed text (-U), quoted as the line is; when
        # several fit, the line stays as typed and they are listed, since what they start with is not what was typed.
        _describe -t values value described -U
        (( $\{#described} > 1 )) && compstate[insert]='' && compstate[list]='list force'
      fi
      ;;
  esac
}

_pravo() {
  local cmd_path='' expect='' word cur=$\{words[CURRENT]} i position=0
  local -a reply
  local REPLY
  for ((i = 2; i < CURRENT; i++)); do
    word=$\{words[i]}
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $word in
      (--) ;;
      (-?*=*) ;;
      (-?*) __pravo_option_value "$cmd_path" "$word"; [[ -n $REPLY ]] && expect=$word ;;
      (*)
        __pravo_commands "$cmd_path"
        if (( position == 0 && $\{reply[(I)$\{(b)word}:*]} )); then
          cmd_path=$\{cmd_path:+$cmd_path }$word
        else
          (( position++ ))
        fi
        ;;
    esac
  done
  if [[ -n $expect ]]; then
    __pravo_option_value "$cmd_path" "$expect"; __pravo_values "$REPLY"
  elif [[ $cur == --*=* ]]; then
    __pravo_option_value "$cmd_path" "$\{cur%%=*}"; compset -P '*='; __pravo_values "$REPLY"
  elif [[ $cur == -* ]]; then
    __pravo_options "$cmd_path"; _describe -t options option reply
  else
    __pravo_commands "$cmd_path"
    if (( position == 0 && $\{#reply} )); then
      _describe -t commands command reply
    else
      __pravo_argument_value "$cmd_path" "$position"; __pravo_values "$REPLY"
    fi
  fi
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _pravo "$@"
else
  compdef _pravo pravo
fi`.replaceAll('$\\{', '${');

// ---------------------------------------------------------------------------------------------------------------- fish

/** A single-quoted fish word. */
function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishScript(root: CompletionNode): string {
  const nodes = allNodes(root);
  const lines: string[] = [];
  lines.push(`# fish completion for pravo.${GENERATED.replace('SHELL', 'fish')}`);
  lines.push('# Install: copy it to ~/.config/fish/completions/pravo.fish.');
  lines.push('');
  lines.push('# The subcommands of a command path, as name<TAB>description lines.');
  lines.push('function __pravo_commands');
  lines.push('    switch $argv[1]');
  for (const node of nodes.filter((n) => n.commands.length > 0)) {
    lines.push(`        case ${fq(node.path)}`);
    lines.push(`            printf '%s\\t%s\\n' ${node.commands.map((c) => `${fq(c.name)} ${fq(shortDescription(c.description))}`).join(' ')}`);
  }
  lines.push('    end');
  lines.push('end');
  lines.push('');
  lines.push('# The options of a command path, as flag<TAB>description lines.');
  lines.push('function __pravo_options');
  lines.push('    switch $argv[1]');
  for (const node of nodes) {
    const entries = node.options.flatMap((o) => o.flags.map((flag) => `${fq(flag)} ${fq(shortDescription(o.description))}`));
    lines.push(`        case ${fq(node.path)}`);
    lines.push(`            printf '%s\\t%s\\n' ${entries.join(' ')}`);
  }
  lines.push('    end');
  lines.push('end');
  lines.push('');
  lines.push('# How the value of option $argv[2] of command path $argv[1] completes; nothing when it takes no value.');
  lines.push('function __pravo_option_value');
  lines.push('    switch "$argv[1] $argv[2]"');
  for (const node of nodes) {
    for (const [flag, word] of valuedFlags(node)) {
      lines.push(`        case ${fq(`${node.path} ${flag}`)}`);
      lines.push(`            echo ${fq(word)}`);
    }
  }
  lines.push('    end');
  lines.push('end');
  lines.push('');
  lines.push('# How argument $argv[2] (counted from 0) of command path $argv[1] completes.');
  lines.push('function __pravo_argument_value');
  lines.push('    switch "$argv[1] $argv[2]"');
  for (const [path, index, word] of argumentCases(nodes)) {
    lines.push(`        case ${fq(`${path} `)}${index === '*' ? "'*'" : index}`);
    lines.push(`            echo ${fq(word)}`);
  }
  lines.push('    end');
  lines.push('end');
  lines.push('');
  lines.push(FISH_INTERPRETER);
  return `${lines.join('\n')}\n`;
}

const FISH_INTERPRETER = String.raw`# Prints the values of kind $argv[1] (see __pravo_option_value); $argv[2..] are the words typed before.
function __pravo_values
    set -l how $argv[1]
    set -l cur (commandline -ct)
    switch $how
        case file
            __fish_complete_path $cur
        case directory
            __fish_complete_directories $cur
        case 'choices:*'
            string split ' ' -- (string replace 'choices:' '' -- $how)
        case 'dynamic:*'
            set -l lines ($argv[2] __complete (string replace 'dynamic:' '' -- $how) $argv[3..-1] 2>/dev/null)
            if test "$lines[1]" = ':file'
                __fish_complete_path $cur
            else
                printf '%s\n' $lines
            end
    end
end

function __pravo_candidates
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmd_path ''
    set -l expect ''
    set -l position 0
    for word in $tokens[2..-1]
        if test -n "$expect"
            set expect ''
            continue
        end
        switch $word
            case '--' '-*=*'
            case '-?*'
                set -l how (__pravo_option_value "$cmd_path" $word)
                if test -n "$how"
                    set expect $word
                end
            case '*'
                if test $position -eq 0; and contains -- $word (__pravo_commands "$cmd_path" | string replace -r '\t.*' '')
                    set cmd_path (string trim -- "$cmd_path $word")
                else
                    set position (math $position + 1)
                end
        end
    end
    set -l how ''
    if test -n "$expect"
        set how (__pravo_option_value "$cmd_path" $expect)
    else if string match -q -- '--*=*' $cur
        set -l option (string replace -r '=.*' '' -- $cur)
        set how (__pravo_option_value "$cmd_path" $option)
        test -n "$how"; and __pravo_values $how $tokens | string replace -r '^' -- "$option="
        return
    else if string match -q -- '-*' $cur
        __pravo_options "$cmd_path"
        return
    else
        set -l commands (__pravo_commands "$cmd_path")
        if test $position -eq 0; and test (count $commands) -gt 0
            printf '%s\n' $commands
            return
        end
        set how (__pravo_argument_value "$cmd_path" $position)
    end
    test -n "$how"; and __pravo_values $how $tokens
end

complete -c pravo -f -a '(__pravo_candidates)'`.replaceAll('$\\{', '${');
