/**
 * Reading a secret (an API key, a user-session token) the way pravo always does: from a hidden prompt on a terminal,
 * or from standard input with `--stdin`; never from the command line, where it would stay in shell history and show
 * in process lists.
 */
import { UsageError } from '../errors/cli.js';
import type { Factory } from '../factory.js';
import { readAllText } from '../io/iostreams.js';

/** What is read, for the prompt and the messages: `API key`, `session token`. */
export interface SecretSpec {
  /** `API key`, `session token`. */
  what: string;
  /** The prompt's question, e.g. `API key for profile "default":`. */
  message: string;
  /** `--stdin` was given. */
  stdin: boolean;
}

/**
 * The secret, trimmed: read whole from stdin with `--stdin`; else typed at a hidden prompt (nothing is echoed, not
 * even one `*` per character, which would tell its length; it can never be revealed on screen).
 * @throws UsageError when there is no terminal to prompt on and no `--stdin`, when nothing was given, or when it holds
 *   white space (no key or token does); the prompt's cancellation (exit 130) on Ctrl-C.
 */
export async function readSecret(factory: Factory, spec: SecretSpec): Promise<string> {
  const { io } = factory;
  let secret: string;
  if (spec.stdin) {
    secret = (await readAllText(io.stdin)).trim();
  } else if (io.canPrompt) {
    const { password } = await import('@inquirer/prompts');
    secret = (
      await password(
        {
          message: spec.message,
          mask: false,
          toggleMask: false,
          theme: { style: { maskedText: '(hidden while you type or paste; Enter to store)' } },
        },
        { input: io.stdin, output: io.promptOutput, signal: factory.signal },
      )
    ).trim();
  } else {
    throw new UsageError(`There is no terminal to type the ${spec.what} at (standard input or error is not a terminal). Pipe it in with --stdin.`);
  }
  if (secret === '') throw new UsageError(`No ${spec.what} was given; nothing was stored.`);
  if (/\s/.test(secret)) throw new UsageError(`The ${spec.what} contains white space, which no ${spec.what} has; nothing was stored.`);
  return secret;
}

/**
 * The refusal of a secret given as an argument: it may be real, so it is never echoed, and the user is told to treat it
 * as exposed.
 * @param what `a key`, `a session token`.
 * @param how the commands that read it properly, e.g. "Run `pravo login` to type it at a hidden prompt, or pipe it in with --stdin."
 * @param replace how to replace an exposed one, e.g. "rotate it (`pravo keys rotate`)".
 */
export function secretArgumentError(what: string, how: string, replace: string): UsageError {
  return new UsageError(
    `pravo never takes ${what} as an argument: it would stay in your shell history and be visible in process lists. ${how} ` +
      `If that was a real one, consider it exposed: clear it from your shell history, and ${replace}.`,
  );
}
