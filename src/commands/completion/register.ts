/**
 * Registration of `pravo completion <bash|zsh|fish>`: prints the completion script of a shell, generated from the
 * command tree it is registered in (`src/completion/`). The same scripts are in the package's `completions/`.
 */
import { Argument, type Command } from 'commander';
import { SHELLS, type Shell } from '../../completion/tree.js';
import type { RunAction } from '../shared.js';

const EXAMPLES = `
Examples:
  $ source <(pravo completion bash)          # this shell only; docs/commands/completion.md says how to install it for good
  $ pravo completion zsh > _pravo            # then move _pravo into a directory of $fpath
  $ pravo completion fish > pravo.fish       # then move it to ~/.config/fish/completions/

Installing (see docs/commands/completion.md, "Shell completion: installing"): for bash, add
\`source <(pravo completion bash)\` to ~/.bashrc (the script needs only bash itself), or, with the bash-completion
package, save it as ~/.local/share/bash-completion/completions/pravo; zsh loads the file _pravo in a directory of
$fpath (before compinit runs), fish ~/.config/fish/completions/pravo.fish.
Installed with npm i -g, the package holds the same three scripts: "$(npm root -g)/pravo/completions/".

They complete commands, options and their fixed values; profile names; --type and --court values from the cached
catalogs (run \`pravo catalog source-types\` and \`pravo catalog courts\` once; a court by any word of its name); job ids for \`pravo answer wait\`
and \`show\`; key ids for \`pravo keys revoke\` (from the last \`pravo keys list\`); result numbers for \`pravo doc\`
(from the last search). Values come from local files: completing never sends a request.`;

/** Registers `completion` on the program. */
export function registerCompletion(program: Command, run: RunAction): void {
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell: bash, zsh or fish').choices(SHELLS))
    .addHelpText('after', EXAMPLES)
    .action(async (shell: Shell, _options: unknown, cmd: Command) => {
      await run(cmd, { command: 'completion', json: false, local: true }, async (factory) => {
        const [{ completionTree }, { completionScript }] = await Promise.all([import('../../completion/tree.js'), import('../../completion/scripts.js')]);
        let root = cmd;
        while (root.parent) root = root.parent;
        factory.io.stdout.write(completionScript(shell, completionTree(root)));
      });
    });
}
