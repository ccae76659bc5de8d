/** Resumes that, all within {@link RESUME_WINDOW_MS}, stop the next one. */
export const RESUME_LIMIT = 3;
/** Ten minutes. */
export const RESUME_WINDOW_MS = 10 * 60 * 1000;

/**
 * Whether a job's restarts look like a crash loop: its last {@link RESUME_LIMIT} resumes all fall
 * within {@link RESUME_WINDOW_MS}, and since the job is unfinished again, the process died (or
 * was stopped) after each of them. A fault that kills the process would otherwise resume the job
 * and die again for as long as systemd restarts it, each time logging every bot in and sending
 * what was on the wire again. It stays so until a person starts the job again, which clears the
 * resumes.
 *
 * @param resumes ISO 8601 times, oldest first (`RunRecord.resumes`).
 */
export function resumedTooOften(resumes: readonly string[]): boolean {
	if (resumes.length < RESUME_LIMIT) return false;
	const last = resumes.slice(-RESUME_LIMIT).map((at) => Date.parse(at));
	if (last.some((at) => Number.isNaN(at))) return false;
	return Math.max(...last) - Math.min(...last) <= RESUME_WINDOW_MS;
}
