// @ts-check
// The analytics page's charts (GET /dashboard/static/analytics-charts.js, under the page's CSP nonce, after
// Chart.js): built from the page's JSON block, the same numbers as its tables. Without it the tables stand alone.
(() => {
  /**
   * @typedef {{ date: string, clicks: number, attributed_installs: number, trials: number, conversions: number, revenue_usd: number }} Day
   */
  /** @typedef {{ clicks: number, attributed_installs: number, trials: number, conversions: number }} Funnel */
  /** @typedef {{ code: string, clicks: number, conversions: number }} Affiliate */
  /** @type {{ daily: { days: Day[] }, funnel: Funnel, top: { affiliates: Affiliate[] } }} */
  const data = JSON.parse(document.getElementById('analytics-data')?.textContent ?? '{}');
  /** @param {string} id */
  const canvas = (id) => /** @type {HTMLCanvasElement} */ (document.getElementById(id));
  const common = /** @type {const} */ ({ animation: false, responsive: true, plugins: { legend: { position: 'bottom' } } });
  const days = data.daily.days;
  new Chart(canvas('daily-chart'), {
    type: 'line',
    options: {
      ...common,
      scales: {
        y: { beginAtZero: true, title: { display: true, text: 'count' } },
        y1: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: 'USD' } },
      },
    },
    data: {
      labels: days.map((d) => d.date),
      datasets: [
        { label: 'Clicks', data: days.map((d) => d.clicks) },
        { label: 'Attributed installs', data: days.map((d) => d.attributed_installs) },
        { label: 'Trials', data: days.map((d) => d.trials) },
        { label: 'Conversions', data: days.map((d) => d.conversions) },
        /** @type {any} a bar dataset on the line chart, on the USD axis */ ({
          label: 'Revenue (USD)',
          data: days.map((d) => d.revenue_usd),
          yAxisID: 'y1',
          type: 'bar',
        }),
      ],
    },
  });
  const f = data.funnel;
  new Chart(canvas('funnel-chart'), {
    type: 'bar',
    options: { ...common, scales: { y: { beginAtZero: true } } },
    data: {
      labels: ['Clicks', 'Attributed installs', 'Trials', 'Conversions'],
      datasets: [{ label: 'Funnel', data: [f.clicks, f.attributed_installs, f.trials, f.conversions] }],
    },
  });
  const top = data.top.affiliates;
  if (top.length > 0)
    new Chart(canvas('top-chart'), {
      type: 'bar',
      options: { ...common, indexAxis: 'y', scales: { x: { beginAtZero: true } } },
      data: {
        labels: top.map((a) => a.code),
        datasets: [
          { label: 'Conversions', data: top.map((a) => a.conversions) },
          { label: 'Clicks', data: top.map((a) => a.clicks) },
        ],
      },
    });
})();
