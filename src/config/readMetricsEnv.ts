import { isIP } from 'node:net';
import type { MetricsSettings } from './Config.js';
import { DEFAULT_METRICS_HOST } from './defaults.js';

/** A host name as DNS writes one: labels of letters, digits and inner hyphens, split by dots. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * Reads `MASSNICK_METRICS_PORT` and `MASSNICK_METRICS_HOST`: no port, no server (the default);
 * a port alone listens on loopback. Each problem is reported under its key, saying what to give.
 */
export function readMetricsEnv(
	port: string | undefined,
	host: string | undefined,
	problem: (key: 'MASSNICK_METRICS_PORT' | 'MASSNICK_METRICS_HOST', message: string) => void,
): MetricsSettings | undefined {
	if (port === undefined) {
		if (host !== undefined) {
			problem(
				'MASSNICK_METRICS_HOST',
				'is set, but MASSNICK_METRICS_PORT is not: without a port there is no health or metrics server; set MASSNICK_METRICS_PORT (9464, say), or unset MASSNICK_METRICS_HOST',
			);
		}
		return undefined;
	}
	let ok = true;
	if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535) {
		problem(
			'MASSNICK_METRICS_PORT',
			`"${port}" is not a port; give a whole number from 1 to 65535 (9464, say), or leave it unset to serve no health checks or metrics`,
		);
		ok = false;
	}
	if (host !== undefined && isIP(host) === 0 && !HOST_NAME.test(host)) {
		problem(
			'MASSNICK_METRICS_HOST',
			`"${host}" is not an address to listen on; give an IP address (127.0.0.1, the default; 0.0.0.0 for every interface; ::1) or a host name, without a scheme or a port (the port is MASSNICK_METRICS_PORT)`,
		);
		ok = false;
	}
	return ok ? { host: host ?? DEFAULT_METRICS_HOST, port: Number(port) } : undefined;
}
