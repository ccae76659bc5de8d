/** One sample of a scrape: `massnick_changes_total{action="nickname",worker="0"} 12`. */
export interface Sample {
	name: string;
	labels: Record<string, string>;
	value: number;
}

/** A scrape in the Prometheus text format, read back: each family's type, and every sample. */
export interface Scrape {
	/** Family name → its `# TYPE` (counter, gauge, histogram, summary). */
	types: Map<string, string>;
	samples: Sample[];
	/** The samples named `name` whose labels include `labels`. */
	find(name: string, labels?: Record<string, string>): Sample[];
	/** The sum of {@link find}'s values: 0 when none match. */
	sum(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Reads Prometheus's text exposition format (version 0.0.4), strictly: a line that is neither a
 * comment nor a sample throws, so a malformed answer fails the test that reads it.
 * See https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */
export function parsePromText(text: string): Scrape {
	const types = new Map<string, string>();
	const samples: Sample[] = [];
	for (const line of text.split('\n')) {
		if (line === '') continue;
		if (line.startsWith('#')) {
			const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
			if (type) types.set(type[1]!, type[2]!);
			else if (!/^# HELP \S+ /.test(line)) throw new Error(`not a HELP or TYPE line: ${line}`);
			continue;
		}
		const match = SAMPLE.exec(line);
		if (!match) throw new Error(`not a sample line: ${line}`);
		const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map(([, key, value]) => [key!, value!.replace(/\\(.)/g, '$1')]));
		// Prometheus reads values as Go's ParseFloat does: NaN in any case (prom-client writes `Nan`).
		const value = /^nan$/i.test(match[3]!) ? Number.NaN : match[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[3]);
		if (Number.isNaN(value) && !/^nan$/i.test(match[3]!)) throw new Error(`not a number in: ${line}`);
		samples.push({ name: match[1]!, labels, value });
	}
	const find = (name: string, labels: Record<string, string> = {}) =>
		samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
	return { types, samples, find, sum: (name, labels) => find(name, labels).reduce((total, sample) => total + sample.value, 0) };
}
