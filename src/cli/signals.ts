/**
 * The signals of the long-running commands (`mm run`, `mm paper`, `mm record`): listening on the
 * process (`processSignals`, `processStopSignals`), and what a command does with SIGINT / SIGTERM
 * (`stopOnSignals`: the first one requests the stop, a second one either exits at once or is taken
 * as the first was). The commands take the registration through their io, so tests hand in their own.
 */

/** Registers a handler for a set of signals (the handler gets the signal's name); returns the unregister function. */
export type SignalRegistrar = (handler: (signal: string) => void) => () => void;

/** The signals that stop a long-running command. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/** The exit status of a second stop signal (128 + SIGINT, the shell's convention). */
export const SECOND_SIGNAL_EXIT = 130;

/** Listen for `signals` on the process; the handler gets the signal's name. Returns the unregister function. */
export function processSignals(signals: readonly NodeJS.Signals[], handler: (signal: string) => void): () => void {
  const listeners = signals.map((s) => [s, (): void => handler(s)] as const);
  for (const [s, listener] of listeners) process.on(s, listener);
  return () => {
    for (const [s, listener] of listeners) process.off(s, listener);
  };
}

/** SIGINT and SIGTERM on the process (the io the commands use outside tests). */
export const processStopSignals: SignalRegistrar = (handler) => processSignals(STOP_SIGNALS, handler);

export interface StopOnSignalsOptions {
  /** Called on a signal that requests the stop, before the request (the command says what it does now). */
  onStop: (signal: string) => void;
  /**
   * What a second signal does. Given: `say`, then `exitNow(130)` at once (mm run, mm paper: the
   * operator gives up waiting for the cancels). Absent: the second signal is taken as the first was
   * (`onStop` again; the stop is already requested), so nothing cuts the shutdown short (mm record:
   * the segment is being sealed).
   */
  again?: { exitNow: (code: number) => void; say?: (signal: string) => void };
}

export interface StopRequest {
  /** Resolves with the first reason: the signal's name, or what `request` was given. */
  readonly requested: Promise<string>;
  /** Request the stop without a signal (a duration reached); later requests change nothing. */
  request(reason: string): void;
  /** Stop listening (the command's `finally`). */
  unregister(): void;
}

/** Listen for the stop signals through `register` and turn the first into a stop request. */
export function stopOnSignals(register: SignalRegistrar, options: StopOnSignalsOptions): StopRequest {
  let resolve!: (reason: string) => void;
  const requested = new Promise<string>((r) => (resolve = r));
  let signals = 0;
  const unregister = register((signal) => {
    signals += 1;
    if (signals > 1 && options.again !== undefined) {
      options.again.say?.(signal);
      options.again.exitNow(SECOND_SIGNAL_EXIT);
      return;
    }
    options.onStop(signal);
    resolve(signal);
  });
  return { requested, request: (reason) => resolve(reason), unregister };
}
