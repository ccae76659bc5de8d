/**
 * How massnick shows figures to people, shared by the boss's messages and the command line's
 * terminal: counts, durations, bars, which workers, the one-line progress, and how often a
 * standing rule's figures are shown again.
 */
export { followedKey, FollowingPace } from './FollowingPace.js';
export { formatCount, formatDuration, formatRate, formatWorkers, percent, progressBar } from './format.js';
export { type FollowingFigures, type ProgressFigures, renderFollowingLine, renderProgressLine } from './renderProgressLine.js';
