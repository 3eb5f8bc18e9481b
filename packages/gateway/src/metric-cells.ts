import type * as Prom from 'prom-client';

/** A label's value as the gateway has it: a name, or a status as a number. */
export type LabelValue = string | number;

/**
 * The series of one metric, one cell per combination of label values, found through nested maps
 * keyed by the values themselves. prom-client finds a series by hashing the labels object into a
 * string on every update (and a histogram then turns its bucket bound into a property name): in a
 * busy gateway that was ~15 µs per request for the nine updates a request makes, against 2 µs in a
 * loop (tools/bench README). Here an update is a few map reads and a number add; the totals reach
 * prom-client when it is scraped.
 */
export class SeriesCells<Cell> {
  /** The cells in the order their series were first seen: the order prom-client exposes them in. */
  readonly all: Cell[] = [];
  private readonly root = new Map<LabelValue, unknown>();

  constructor(
    private readonly labelNames: readonly string[],
    private readonly make: (labels: Record<string, string>) => Cell,
  ) {}

  /** The cell of these label values (in `labelNames` order), made on first use. */
  get(...values: LabelValue[]): Cell {
    let map = this.root;
    const last = this.labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      const value = values[i] as LabelValue;
      let next = map.get(value) as Map<LabelValue, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        map.set(value, next);
      }
      map = next;
    }
    const key = values[last] as LabelValue;
    let cell = map.get(key) as Cell | undefined;
    if (cell === undefined) {
      const labels: Record<string, string> = {};
      for (let i = 0; i <= last; i++) labels[this.labelNames[i] as string] = String(values[i]);
      cell = this.make(labels);
      map.set(key, cell);
      this.all.push(cell);
    }
    return cell;
  }

  /** Forgets every series. */
  clear(): void {
    this.root.clear();
    this.all.length = 0;
  }
}

/** A counter's series: what was added since the last scrape. */
export interface CounterCell {
  readonly labels: Record<string, string>;
  pending: number;
  /** Handed to prom-client at least once (a series added 0 is still shown, as prom-client does). */
  shown: boolean;
}

/**
 * A prom-client counter fed from cells: `cells.get(...).pending += n` on the request path, moved
 * into the counter when it is collected (at each scrape).
 */
export function cellCounter(prom: typeof Prom, config: { name: string; help: string; labelNames: readonly string[]; registers: Prom.Registry[] }) {
  const cells = new SeriesCells<CounterCell>(config.labelNames, (labels) => ({ labels, pending: 0, shown: false }));
  const counter = new prom.Counter({
    ...config,
    labelNames: [...config.labelNames],
    collect() {
      for (const cell of cells.all) {
        if (cell.pending === 0 && cell.shown) continue;
        this.inc(cell.labels, cell.pending);
        cell.pending = 0;
        cell.shown = true;
      }
    },
  });
  return { counter, cells };
}

/** A histogram's series: observations per bucket (not cumulative), their sum and count. */
export interface HistogramCell {
  readonly labels: Record<string, string>;
  readonly counts: number[];
  sum: number;
  count: number;
}

/** Counts `value` in `cell` (buckets are upper bounds, ascending; above the last: only the count). */
export function observeIn(cell: HistogramCell, buckets: readonly number[], value: number): void {
  for (let i = 0; i < buckets.length; i++) {
    if (value <= (buckets[i] as number)) {
      (cell.counts[i] as number)++;
      break;
    }
  }
  cell.sum += value;
  cell.count++;
}

/** One exposed value of a histogram, in prom-client's shape (`getForPromString`). */
interface ExposedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * A prom-client histogram whose series live in cells ({@link observeIn} on the request path) and
 * are exposed in exactly the values prom-client's own histogram gives (a test compares the text).
 * Only exposition is prom-client's: its `observe`, `labels`, `zero` and `startTimer` are not used.
 */
export function cellHistogram(
  prom: typeof Prom,
  config: { name: string; help: string; labelNames: readonly string[]; buckets: number[]; registers: Prom.Registry[] },
) {
  const { buckets, name, help } = config;
  const cells = new SeriesCells<HistogramCell>(config.labelNames, (labels) => ({ labels, counts: buckets.map(() => 0), sum: 0, count: 0 }));

  class CellHistogram extends prom.Histogram {
    async getForPromString() {
      const values: ExposedValue[] = [];
      const bucketName = `${name}_bucket`;
      for (const cell of cells.all) {
        let below = 0;
        for (let i = 0; i < buckets.length; i++) {
          below += cell.counts[i] as number;
          values.push({ labels: { le: buckets[i] as number }, sharedLabels: cell.labels, value: below, metricName: bucketName, exemplar: null });
        }
        values.push(
          { labels: { le: '+Inf' }, sharedLabels: cell.labels, value: cell.count, metricName: bucketName, exemplar: null },
          { labels: {}, sharedLabels: cell.labels, value: cell.sum, metricName: `${name}_sum`, exemplar: undefined },
          { labels: {}, sharedLabels: cell.labels, value: cell.count, metricName: `${name}_count`, exemplar: undefined },
        );
      }
      return { name, help, type: 'histogram', values, aggregator: 'sum' };
    }

    /** The same values with each series' labels after `le`, as prom-client's `get` gives them. */
    override async get() {
      const data = await this.getForPromString();
      const values = data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
      return { ...data, values } as unknown as Awaited<ReturnType<Prom.Histogram['get']>>;
    }

    override reset(): void {
      cells.clear();
    }
  }

  const histogram = new CellHistogram({ ...config, labelNames: [...config.labelNames], buckets: [...buckets] });
  return { histogram, cells, buckets };
}
