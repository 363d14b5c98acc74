/**
 * The frame every command action runs in: it runs the command, and turns whatever it throws into a message on stderr
 * (text for people, one JSON line with `--json`) and an exit code (`src/exit-codes.ts`).
 */
import { useColor, type Context } from '../context.js';

/** How the action was invoked, for error rendering. */
export interface ActionInfo {
  /** Command path for help hints, e.g. `search` or `config set-key`. */
  command: string;
  /** Whether `--json` was given: errors are then one JSON line on stderr. */
  json: boolean;
}

/** Runs `run` and sets `process.exitCode` from its result or its error. Never throws. */
export async function runAction(
  ctx: Context,
  info: ActionInfo,
  run: (ctx: Context) => Promise<number>,
): Promise<void> {
  try {
    process.exitCode = await run(ctx);
  } catch (error) {
    const { summarizeError, renderErrorJson, renderErrorText } = await import('../render/errors.js');
    const summary = summarizeError(error, { command: info.command, ...(ctx.globals.profile ? { profile: ctx.globals.profile } : {}) });
    ctx.io.stderr.write(
      info.json ? renderErrorJson(summary) : renderErrorText(summary, useColor(ctx.io.stderr, ctx.io.env, ctx.globals)),
    );
    process.exitCode = summary.exitCode;
  }
}
