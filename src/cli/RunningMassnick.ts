import type { Massnick } from '../startMassnick.js';

/**
 * What the command line uses of a running massnick: its workers, jobs and guild, never its boss
 * (a run may start without one). Named here so `cli/` needs no type of `boss/`: any
 * `Massnick`, with a boss or without, is one.
 */
export type RunningMassnick = Omit<Massnick<undefined>, 'boss'>;
