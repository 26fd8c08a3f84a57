// The analytics page loads Chart.js's UMD build (GET /dashboard/static/chart.js) before its own script.
declare const Chart: typeof import('chart.js').Chart;
