/**
 * The audit log reason every rename carries, so the guild's moderators can see who ran massnick.
 *
 * Discord takes 1 to 512 characters in `X-Audit-Log-Reason`; @discordjs/rest URL-encodes the
 * value itself. We count Unicode code points, as for nicknames.
 *
 * @see https://discord.com/developers/docs/resources/audit-log#audit-log-entry-object
 */

/** The values a reason template can use. */
export interface AuditLogReasonValues {
	/** `rename` or `restore`. */
	readonly jobKind: string;
	/** The tag of who ran the command (`name` or `name#1234`). */
	readonly user: string;
	readonly userId: string;
	readonly jobId: string;
}

export const AUDIT_LOG_REASON_MAX_LENGTH = 512;

const PLACEHOLDERS: readonly (keyof AuditLogReasonValues)[] = ['jobKind', 'user', 'userId', 'jobId'];

// The longest each value can be, to check a template once at start rather than on every job.
const LONGEST: AuditLogReasonValues = {
	jobKind: 'restore',
	user: 'x'.repeat(37), // 32-character username + '#1234' for the few legacy tags left
	userId: '9'.repeat(20),
	jobId: 'x'.repeat(40),
};

/** Fills `template` in. Unknown placeholders stay as written (the template was checked at start). */
export function expandAuditLogReason(template: string, values: AuditLogReasonValues): string {
	const text = template.replace(/\{(\w+)\}/g, (whole, name: string) =>
		(PLACEHOLDERS as readonly string[]).includes(name) ? values[name as keyof AuditLogReasonValues] : whole,
	);
	const points = Array.from(text.trim());
	return points.length > AUDIT_LOG_REASON_MAX_LENGTH ? points.slice(0, AUDIT_LOG_REASON_MAX_LENGTH).join('') : points.join('');
}

/** What is wrong with a reason template, or `undefined` if it always expands to 1–512 characters. */
export function auditLogReasonProblem(template: string): string | undefined {
	for (const match of template.matchAll(/\{(\w*)\}/g)) {
		if (!(PLACEHOLDERS as readonly string[]).includes(match[1] ?? '')) {
			return `unknown placeholder ${match[0]}; use ${PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}`;
		}
	}
	const shortest = expandAuditLogReason(template, { jobKind: 'rename', user: 'x', userId: '1', jobId: 'x' });
	if (shortest.length === 0) return 'must not be empty; Discord needs 1 to 512 characters';
	const longest = Array.from(template.replace(/\{(\w+)\}/g, (_, name: string) => LONGEST[name as keyof AuditLogReasonValues])).length;
	if (longest > AUDIT_LOG_REASON_MAX_LENGTH) {
		return `can expand to ${longest} characters; Discord allows at most ${AUDIT_LOG_REASON_MAX_LENGTH}, so shorten the fixed text`;
	}
	return undefined;
}

/**
 * `reason` followed by the requester's own words (`/masskick reason:raid of May 1st`), cut to
 * Discord's 512 code points; `reason` alone without them.
 */
export function withRequesterReason(reason: string, own: string | undefined): string {
	const words = own?.trim();
	if (!words) return reason;
	const points = Array.from(`${reason}: ${words}`);
	return points.length > AUDIT_LOG_REASON_MAX_LENGTH ? points.slice(0, AUDIT_LOG_REASON_MAX_LENGTH).join('') : points.join('');
}
