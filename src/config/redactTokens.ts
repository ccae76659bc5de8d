import type { Config } from './Config.js';

/** The replacement for a secret in logs and messages. */
export const REDACTED = '[redacted]';

type TokenConfig = Pick<Config, 'bossToken' | 'workerTokens'> & Partial<Pick<Config, 'listerToken'>>;

/** Every secret in the configuration: what the logger must never write. */
export function secretsOf(config: TokenConfig): readonly string[] {
	return [config.bossToken, ...config.workerTokens, config.listerToken ?? ''].filter((secret) => secret !== '');
}

/**
 * A function replacing every occurrence of a secret with `[redacted]`, for text written many
 * times (log lines). Longer secrets go first, so one that contains another is hidden whole.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
	const list = secrets.filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
	return (text) => {
		let result = text;
		for (const secret of list) if (result.includes(secret)) result = result.replaceAll(secret, REDACTED);
		return result;
	};
}

/** `text` with every secret replaced by `[redacted]`; takes the config or the list from {@link secretsOf}. */
export function redactTokens(text: string, secrets: readonly string[] | TokenConfig): string {
	return createRedactor(isSecretList(secrets) ? secrets : secretsOf(secrets))(text);
}

function isSecretList(value: readonly string[] | TokenConfig): value is readonly string[] {
	return Array.isArray(value);
}
