import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MassnickMetrics } from '../../src/health/MassnickMetrics.js';
import { parsePromText } from '../support/promText.js';

interface Panel {
	type: string;
	id: number;
	title: string;
	description?: string;
	datasource?: { type: string; uid: string };
	gridPos: { h: number; w: number; x: number; y: number };
	targets?: Array<{ expr: string; refId: string; datasource?: { uid: string } }>;
}

const dashboard = JSON.parse(readFileSync('deploy/grafana/massnick.json', 'utf8')) as {
	title: string;
	uid: string;
	schemaVersion: number;
	templating: { list: Array<{ name: string; type: string; query: unknown }> };
	panels: Panel[];
};
const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
const operating = readFileSync('docs/operating.md', 'utf8');
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template literal's.
const DATASOURCE = '${datasource}';

/** The metric names a PromQL expression reads: massnick's own, and Node's process metrics. */
const metricsIn = (expr: string): string[] => [...expr.matchAll(/\b(?:massnick|process|nodejs)_[a-z0-9_]+\b/g)].map(([name]) => name);

/**
 * The Grafana dashboard in deploy/grafana, read against what /metrics really serves (a scrape of
 * MassnickMetrics) and against docs/operating.md, which describes every panel.
 */
describe('deploy/grafana/massnick.json', () => {
	it('is a dashboard whose every query goes to the Prometheus chosen at import ($datasource), per $instance', () => {
		expect([dashboard.title, dashboard.uid]).toEqual(['massnick', 'massnick']);
		expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
		expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
		expect(dashboard.templating.list.find((variable) => variable.name === 'instance')).toMatchObject({ type: 'query' });
		expect(panels.length).toBeGreaterThanOrEqual(15);
		for (const panel of panels) {
			expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: DATASOURCE });
			expect(panel.targets!.length, panel.title).toBeGreaterThan(0);
			for (const target of panel.targets!) {
				expect(target.datasource?.uid, panel.title).toBe(DATASOURCE);
				for (const name of metricsIn(target.expr).filter((name) => name.startsWith('massnick_')))
					expect(target.expr, panel.title).toContain(`${name}{instance=~"$instance"}`);
			}
		}
	});

	it('every panel has an id of its own and a place on the 24-column grid that no other panel takes', () => {
		const ids = dashboard.panels.map((panel) => panel.id);
		expect(new Set(ids).size).toBe(ids.length);
		const cells = new Map<string, string>();
		for (const panel of dashboard.panels) {
			const { x, y, w, h } = panel.gridPos;
			expect(x + w, panel.title).toBeLessThanOrEqual(24);
			for (let row = y; row < y + h; row++) {
				for (let column = x; column < x + w; column++) {
					const key = `${column},${row}`;
					expect(cells.get(key), `${panel.title} overlaps`).toBeUndefined();
					cells.set(key, panel.title);
				}
			}
		}
	});

	it('reads only metrics /metrics serves, and shows every massnick metric', async () => {
		const served = parsePromText(await new MassnickMetrics(() => true).text()).types;
		// A histogram's series: its buckets, count and sum.
		const series = new Set([...served].flatMap(([name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name])));
		const read = new Set(panels.flatMap((panel) => panel.targets!.flatMap((target) => metricsIn(target.expr))));
		expect([...read].filter((name) => !series.has(name))).toEqual([]);
		const shown = (family: string) => [...read].some((name) => name === family || name.startsWith(`${family}_`));
		expect([...served.keys()].filter((family) => family.startsWith('massnick_') && !shown(family))).toEqual([]);
	});

	it('every panel is described on the dashboard and in docs/operating.md, by its title', () => {
		for (const panel of panels) {
			expect(panel.description?.length ?? 0, panel.title).toBeGreaterThan(40);
			expect(operating, panel.title).toContain(`| **${panel.title}** |`);
		}
	});
});
