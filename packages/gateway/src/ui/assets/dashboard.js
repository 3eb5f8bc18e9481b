// The llm-gateway dashboard (served at /ui): reads the admin API with the sign-in cookie, draws
// with Chart.js (served by the gateway too). Plain browser JavaScript, no build step; the page's
// CSP allows no inline code, so every handler is attached here. A module: strict, its own scope,
// run after the page is parsed and after Chart.js (a deferred classic script before it).

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });
const CENT_FRACTIONS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 2 });
/** USD: 2 to 4 decimals, and 2 significant digits below a cent (one request's cost is often $0.00003). */
const USD = { format: (usd) => (usd !== 0 && Math.abs(usd) < 0.01 ? CENT_FRACTIONS : DOLLARS).format(usd) };
const PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const PALETTE = ['#2458d3', '#e8590c', '#2f9e44', '#ae3ec9', '#1098ad', '#f59f00', '#c2255c', '#5c940d', '#495057', '#7048e8'];
const DAY_MS = 86_400_000;

const $ = (selector) => document.querySelector(selector);

/** An element with text and attributes; children appended (strings become text: never HTML). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(node, text) {
  node.textContent = text ?? '';
  node.hidden = !text;
}

// ---- sign-in page -------------------------------------------------------------------------

function signInPage(form) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = $('#sign-in-error');
    show(error, '');
    const reply = await fetch('/ui/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: form.elements.key.value }),
      credentials: 'same-origin',
    });
    if (reply.ok) location.assign('/ui');
    else show(error, reply.status === 401 ? 'That is not the admin key.' : `Sign-in failed (${reply.status}).`);
  });
}

// ---- the admin API ------------------------------------------------------------------------

/** A refusal of the admin API: its message and status. */
class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** An admin API call; a 401 (the cookie expired) shows the sign-in page again. */
async function api(path, options = {}) {
  const reply = await fetch(path, {
    ...options,
    credentials: 'same-origin',
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
  });
  if (reply.status === 401) {
    location.assign('/ui');
    throw new Error('signed out');
  }
  const text = await reply.text();
  const body = text === '' ? undefined : JSON.parse(text);
  if (!reply.ok) throw new ApiError(body?.error?.message ?? `${path} answered ${reply.status}`, reply.status);
  return body;
}

/** Figures of a usage line (`GET /admin/usage`; see the README, "Prices and cost"). */
const number = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const costOf = (line) => number(line.costUsd);
const unpricedOf = (line) => number(line.unpricedRequests);
const tokensOf = (line) => number(line.inputTokens) + number(line.outputTokens);

// ---- totals and groups --------------------------------------------------------------------

function renderTotals(lines) {
  const sum = (pick) => lines.reduce((total, line) => total + pick(line), 0);
  const requests = sum((line) => number(line.requests));
  const errors = sum((line) => number(line.errors));
  const totals = {
    requests: INTEGER.format(requests),
    errors: INTEGER.format(errors),
    errorRate: requests === 0 ? '–' : PERCENT.format(errors / requests),
    inputTokens: INTEGER.format(sum((line) => number(line.inputTokens))),
    outputTokens: INTEGER.format(sum((line) => number(line.outputTokens))),
    cost: USD.format(sum(costOf)),
    unpriced: INTEGER.format(sum(unpricedOf)),
  };
  for (const [name, text] of Object.entries(totals)) $(`[data-total="${name}"]`).textContent = text;
}

function renderGroups(lines, split) {
  $('#groups-by').textContent = split;
  const rows = lines.map((line) =>
    el(
      'tr',
      {},
      el('td', {}, line.group ?? '-'),
      el('td', { class: 'number' }, INTEGER.format(number(line.requests))),
      el('td', { class: 'number' }, INTEGER.format(number(line.errors))),
      el('td', { class: 'number' }, INTEGER.format(number(line.inputTokens))),
      el('td', { class: 'number' }, INTEGER.format(number(line.outputTokens))),
      el('td', { class: 'number' }, USD.format(costOf(line))),
      el('td', { class: 'number' }, INTEGER.format(unpricedOf(line))),
    ),
  );
  $('#groups tbody').replaceChildren(...(rows.length > 0 ? rows : [el('tr', {}, el('td', { colspan: 7, class: 'muted' }, 'No requests in this period.'))]));
}

// ---- charts -------------------------------------------------------------------------------

/** UTC days from `since` to today, as `YYYY-MM-DD`. */
function daysFrom(sinceMs) {
  const days = [];
  for (let day = Math.floor(sinceMs / DAY_MS) * DAY_MS; day <= Date.now(); day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

const charts = new Map();

function draw(id, config) {
  if (typeof globalThis.Chart === 'undefined') return;
  charts.get(id)?.destroy();
  const base = { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: 'bottom' } } };
  charts.set(id, new globalThis.Chart($(`#${id}`), { ...config, options: { ...base, ...config.options } }));
}

/** `value(line)` of each day in `days`, from lines whose group is the day (`by=day`); 0 for a day without requests. */
function perDay(lines, days, value) {
  const byDay = new Map(lines.map((line) => [String(line.group).slice(0, 10), line]));
  return days.map((day) => (byDay.has(day) ? value(byDay.get(day)) : 0));
}

/** One stacked dataset per series (`by=day&split=...`: each key's, model's or upstream's days). */
function stackedSeries(series, days, value) {
  return series.map((one, index) => ({
    label: one.name,
    data: perDay(one.lines, days, value),
    backgroundColor: PALETTE[index % PALETTE.length],
    stack: 'groups',
  }));
}

/** Draws the charts from `GET /admin/usage?by=day&split=...`: the day totals in `lines`, each group's days in `series`. */
function renderCharts(answer, sinceMs) {
  const days = daysFrom(sinceMs);
  const series = answer.series ?? [];
  const stacked = { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } } };
  draw('chart-spend', { type: 'bar', data: { labels: days, datasets: stackedSeries(series, days, costOf) }, options: stacked });
  draw('chart-tokens', { type: 'bar', data: { labels: days, datasets: stackedSeries(series, days, tokensOf) }, options: stacked });
  const requests = perDay(answer.lines, days, (line) => number(line.requests));
  const errors = perDay(answer.lines, days, (line) => number(line.errors));
  draw('chart-requests', {
    type: 'bar',
    data: {
      labels: days,
      datasets: [
        { label: 'requests', data: requests, backgroundColor: PALETTE[0], yAxisID: 'y' },
        { label: 'errors', data: errors, backgroundColor: '#b42318', yAxisID: 'y' },
        {
          label: 'error rate %',
          type: 'line',
          data: requests.map((count, i) => (count === 0 ? 0 : Math.round((errors[i] / count) * 1000) / 10)),
          borderColor: '#f59f00',
          backgroundColor: '#f59f00',
          yAxisID: 'rate',
        },
      ],
    },
    // `offset`: a line dataset beside bars would otherwise put the first and last bars half off the axis.
    options: {
      scales: { x: { offset: true }, y: { beginAtZero: true }, rate: { position: 'right', beginAtZero: true, max: 100, grid: { drawOnChartArea: false } } },
    },
  });
}

// ---- upstreams and recent requests --------------------------------------------------------

function renderUpstreams(answer) {
  const rows = answer.upstreams.map((upstream) =>
    el(
      'tr',
      { 'data-upstream': upstream.name },
      el('td', {}, upstream.name),
      el('td', {}, upstream.flavor ? `${upstream.protocol} (${upstream.flavor})` : upstream.protocol),
      el('td', { class: `state-${upstream.state}` }, upstream.state),
      el('td', { class: 'number' }, upstream.recentFailures),
      el('td', { class: 'number' }, upstream.cooldownRemainingMs ? `${Math.ceil(upstream.cooldownRemainingMs / 1000)} s` : '–'),
      el('td', { class: 'number' }, upstream.inFlight),
      el('td', { class: 'number' }, upstream.latencyMs ?? '–'),
    ),
  );
  $('#upstreams tbody').replaceChildren(...rows);
}

function problemsOf(request) {
  const items = request.warnings.map((warning) => el('li', { class: 'warning' }, `${warning.code} at ${warning.path}: ${warning.message}`));
  if (request.warningsDropped) items.push(el('li', { class: 'warning' }, `${request.warningsDropped} more warnings`));
  if (request.errorKind) items.unshift(el('li', { class: 'status-error' }, `error: ${request.errorKind}`));
  return items.length > 0 ? el('ul', { class: 'problems' }, items) : '';
}

function renderRequests(answer) {
  const rows = answer.requests.map((request) =>
    el(
      'tr',
      { 'data-request-id': request.requestId },
      el('td', { title: request.requestId }, request.time.replace('T', ' ').slice(0, 19)),
      el('td', {}, request.keyId ?? '–'),
      el('td', {}, request.clientModel ?? '–'),
      el('td', {}, request.upstream ?? '–'),
      el('td', { class: request.status >= 400 ? 'status-error' : '' }, request.status),
      el('td', { class: 'number' }, Math.round(request.totalMs)),
      el('td', { class: 'number' }, request.usage ? `${INTEGER.format(request.usage.inputTokens)} / ${INTEGER.format(request.usage.outputTokens)}` : '–'),
      el('td', { class: 'number' }, request.unpriced ? 'unpriced' : request.costUsd !== undefined ? USD.format(request.costUsd) : '–'),
      el('td', {}, problemsOf(request)),
    ),
  );
  $('#requests tbody').replaceChildren(
    ...(rows.length > 0 ? rows : [el('tr', {}, el('td', { colspan: 9, class: 'muted' }, 'No requests since this process started.'))]),
  );
}

// ---- keys ---------------------------------------------------------------------------------

const keysOf = (answer) => answer?.data ?? [];

function budgetText(budget) {
  return budget ? `${USD.format(budget.usd)} / ${budget.period}` : '–';
}

function keyRow(key) {
  const state = key.status;
  const actions = el('td', {});
  if (state !== 'revoked') {
    const edit = el('button', { type: 'button', class: 'secondary', 'data-action': 'edit' }, 'Edit limits');
    const revoke = el('button', { type: 'button', class: 'danger', 'data-action': 'revoke' }, 'Revoke');
    edit.addEventListener('click', () => openEditor(key, edit.closest('tr')));
    // Two clicks: the first asks, the second revokes (no modal dialog to block on).
    revoke.addEventListener('click', async () => {
      if (revoke.dataset.confirm !== 'yes') {
        revoke.dataset.confirm = 'yes';
        revoke.textContent = 'Confirm revoke';
        return;
      }
      await keyAction(() => api(`/admin/keys/${encodeURIComponent(key.name)}`, { method: 'DELETE' }));
    });
    actions.append(edit, ' ', revoke);
  }
  return el(
    'tr',
    { 'data-key': key.name },
    el('td', {}, key.name),
    el('td', {}, key.prefix),
    el('td', {}, key.models.join(', ') || 'all'),
    el('td', {}, budgetText(key.budget)),
    el('td', { class: 'number' }, key.rpm ?? '–'),
    el('td', { class: 'number' }, key.tpm ?? '–'),
    el('td', {}, key.expiresAt ? key.expiresAt.slice(0, 10) : 'never'),
    el('td', { 'data-state': state }, state),
    actions,
  );
}

/** The limits a key form holds, as the admin API takes them (`null` clears a limit on update). */
function limitsFrom(form, forUpdate) {
  const value = (name) => form.elements[name]?.value.trim() ?? '';
  const numberOrNull = (name) => (value(name) === '' ? (forUpdate ? null : undefined) : Number(value(name)));
  const models = value('models')
    .split(',')
    .map((glob) => glob.trim())
    .filter(Boolean);
  const budget = value('budget') === '' ? (forUpdate ? null : undefined) : { usd: Number(value('budget')), period: value('period') };
  const body = { rpm: numberOrNull('rpm'), tpm: numberOrNull('tpm'), budget };
  if (models.length > 0 || forUpdate) body.models = models;
  if (value('expires') !== '') body.expiresAt = value('expires');
  return Object.fromEntries(Object.entries(body).filter(([, entry]) => entry !== undefined));
}

function openEditor(key, row) {
  row.nextElementSibling?.classList.contains('key-editor') && row.nextElementSibling.remove();
  const form = el(
    'form',
    { class: 'key-form' },
    el(
      'fieldset',
      {},
      el('legend', {}, `Limits of ${key.name}`),
      el('label', {}, 'Models ', el('input', { name: 'models', value: key.models.join(', ') })),
      el('label', {}, 'Budget (USD) ', el('input', { name: 'budget', type: 'number', min: 0, step: '0.01', value: key.budget?.usd ?? '' })),
      el(
        'label',
        {},
        'per ',
        el(
          'select',
          { name: 'period' },
          ...['day', 'week', 'month', 'total'].map((period) => el('option', { value: period, selected: (key.budget?.period ?? 'month') === period }, period)),
        ),
      ),
      el('label', {}, 'Requests / min ', el('input', { name: 'rpm', type: 'number', min: 1, step: 1, value: key.rpm ?? '' })),
      el('label', {}, 'Tokens / min ', el('input', { name: 'tpm', type: 'number', min: 1, step: 1, value: key.tpm ?? '' })),
      el('button', { type: 'submit' }, 'Save'),
    ),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await keyAction(() => api(`/admin/keys/${encodeURIComponent(key.name)}`, { method: 'PATCH', body: JSON.stringify(limitsFrom(form, true)) }));
  });
  row.after(el('tr', { class: 'key-editor' }, el('td', { colspan: 9 }, form)));
}

async function keyAction(call) {
  show($('#key-error'), '');
  try {
    const answer = await call();
    await loadKeys();
    return answer;
  } catch (error) {
    show($('#key-error'), error.message);
    return undefined;
  }
}

/**
 * `load()`, or when the gateway answers 404 (a feature this gateway has not configured: no ledger,
 * no key store), the API's message in the `unavailable` element instead of the `available` one.
 */
async function unlessUnavailable(available, unavailable, load) {
  try {
    await load();
    $(available).hidden = false;
    show($(unavailable), '');
  } catch (error) {
    if (error.status !== 404) throw error;
    $(available).hidden = true;
    show($(unavailable), `Not available: ${error.message}.`);
  }
}

async function loadKeys() {
  await unlessUnavailable('#keys-manage', '#keys-unavailable', async () => {
    const keys = keysOf(await api('/admin/keys'));
    $('#keys tbody').replaceChildren(...keys.map(keyRow));
  });
}

function keysSection() {
  const form = $('#key-create');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { name: form.elements.name.value.trim(), ...limitsFrom(form, false) };
    const answer = await keyAction(() => api('/admin/keys', { method: 'POST', body: JSON.stringify(body) }));
    if (answer === undefined) return;
    $('#key-secret-name').textContent = body.name;
    $('#key-secret-value').textContent = answer.secret;
    $('#key-secret').hidden = false;
    form.reset();
  });
  // The secret leaves the page once dismissed: it is shown this once.
  $('#key-secret-dismiss').addEventListener('click', () => {
    $('#key-secret-value').textContent = '';
    $('#key-secret').hidden = true;
  });
}

// ---- the page -----------------------------------------------------------------------------

const SINCE_MS = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };
/** How often the live tables (upstream health, recent requests) refresh while the page is visible. */
const LIVE_REFRESH_MS = 15_000;

/** Upstream health and recent requests again; a failure shows at the next full load, not here. */
async function refreshLive() {
  if (document.hidden) return;
  await Promise.all([api('/admin/upstreams').then(renderUpstreams, () => {}), api('/admin/requests?limit=50').then(renderRequests, () => {})]);
}

async function section(name, load) {
  try {
    await load();
    return undefined;
  } catch (error) {
    return `${name}: ${error.message}`;
  }
}

async function loadAll() {
  const since = $('#since').value;
  const split = $('#split').value;
  const sinceMs = Date.now() - SINCE_MS[since];
  $('#totals-since').textContent = `(last ${since})`;
  const query = `since=${encodeURIComponent(since)}`;
  const problems = await Promise.all([
    section('status', async () => {
      $('#version').textContent = `v${(await api('/admin/status')).version}`;
    }),
    section('usage', () =>
      unlessUnavailable('#usage', '#usage-unavailable', async () => {
        const [groups, days] = await Promise.all([api(`/admin/usage?by=${split}&${query}`), api(`/admin/usage?by=day&split=${split}&${query}`)]);
        renderTotals(groups.lines);
        renderGroups(groups.lines, split);
        renderCharts(days, sinceMs);
      }),
    ),
    section('upstreams', async () => renderUpstreams(await api('/admin/upstreams'))),
    section('requests', async () => renderRequests(await api('/admin/requests?limit=50'))),
    section('keys', loadKeys),
  ]);
  show($('#load-error'), problems.filter(Boolean).join(' · '));
  document.body.dataset.loaded = String(Date.now());
}

function dashboardPage() {
  keysSection();
  $('#refresh').addEventListener('click', loadAll);
  $('#since').addEventListener('change', loadAll);
  $('#split').addEventListener('change', loadAll);
  $('#sign-out').addEventListener('click', async () => {
    await fetch('/ui/sign-out', { method: 'POST', credentials: 'same-origin' });
    location.assign('/ui');
  });
  loadAll();
  setInterval(refreshLive, LIVE_REFRESH_MS);
}

const signInForm = $('#sign-in-form');
if (signInForm) signInPage(signInForm);
else dashboardPage();
