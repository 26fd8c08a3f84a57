// The visual system's style sheet (api/view-kit/visual.tsx has its parts), kept apart so html.tsx, which every
// page's document comes from, appends it without importing the components (they import html.tsx's safeUrl).
/**
 * The visual system's sheet (html.tsx appends it to its own). Scales: type steps -1..3, spacing 1..5; one accent
 * (#0071e3 on controls, #0058b0 for text and lines, both 4.5:1 on white). Tables: words break between words, only a
 * long token's cell (`.wrap-any`: an email, an id) and a first column's overlong word anywhere, a code or a pill never inside itself,
 * a table's action column (the last of a `.has-actions` table) stays the last and on a phone the first and action
 * columns stick while the rest
 * scrolls inside the table's own scroller.
 */
export const VISUAL_STYLE =
  `
  :root{--step--1:.875rem;--step-0:1rem;--step-1:1.15rem;--step-2:1.5rem;--step-3:1.9rem;` +
  `--space-1:.25rem;--space-2:.5rem;--space-3:1rem;--space-4:1.5rem;--space-5:2.5rem;` +
  `--accent:#0071e3;--accent-text:#0058b0;--line:#e5e5ea;--surface:#fff;--muted-bg:#f5f5f7}
  main.wide{max-width:min(80rem,calc(100vw - 1rem));padding:var(--space-4) 1.25rem}
  .brand{display:flex;flex-wrap:wrap;align-items:baseline;gap:var(--space-1) var(--space-3);margin:0 0 var(--space-2)}
  .brand .product{font-weight:800;font-size:var(--step-1);color:var(--accent-text);letter-spacing:.02em}
  .brand .org{font-weight:600} .brand form{margin:0;display:flex;gap:var(--space-2);align-items:center}
  .brand label{display:inline;margin:0;font-weight:400} .brand .who{margin-left:auto}
  main.wide .brand select{min-width:0;width:auto;padding:.3rem} main.wide .brand button{margin:0;padding:.3rem .8rem;white-space:nowrap}
  .cards{list-style:none;padding:0;margin:var(--space-3) 0;display:grid;gap:var(--space-3);` +
  `grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr))}
  .card{background:var(--surface);border:1px solid var(--line);border-radius:10px;padding:.75rem;height:100%}
  .card p{margin:0} .card-label{font-size:var(--step--1);color:#5f5f64;font-weight:600}
  .card-value{font-size:1.4rem;font-weight:700;white-space:nowrap;font-variant-numeric:tabular-nums;margin:var(--space-1) 0}
  .card-value .unit{font-size:var(--step--1);font-weight:600;color:#5f5f64}
  .card-note{font-size:var(--step--1);color:#5f5f64}
  .spark{display:block;width:100%;height:28px;color:var(--accent-text);margin:var(--space-1) 0}
  .empty-state{border:1px dashed #8e8e93;border-radius:10px;padding:var(--space-3);margin:var(--space-2) 0}
  .empty-state p{margin:var(--space-1) 0} .empty-title{font-weight:600}
  .table-scroll table{font-size:var(--step--1)} .table-scroll th{font-size:.8rem}
  .table-scroll th,.table-scroll td{padding:.3rem .4rem}
  .table-scroll td time{white-space:normal;display:inline-block;min-width:5.8rem}
  .table-scroll td{overflow-wrap:break-word} .table-scroll td:first-child{min-width:7.5rem;overflow-wrap:anywhere}
  .table-scroll td.wrap-any{overflow-wrap:anywhere;min-width:6.5rem} .table-scroll th{overflow-wrap:normal}
  .table-scroll code,.table-scroll .badge,.table-scroll td.num{white-space:nowrap;overflow-wrap:normal;word-break:normal}
  .has-actions :is(th,td):last-child{white-space:nowrap;overflow-wrap:normal}
  .has-actions td:last-child form{display:inline-block;margin:0 var(--space-1) 0 0} .has-actions dialog{white-space:normal}
  main.wide .has-actions td:last-child button{margin:var(--space-1) 0}
  main.wide .table-scroll input{min-width:12rem;width:100%}
  main.wide .table-scroll input[type=checkbox]{min-width:0;width:1.25rem;height:1.25rem;margin:0}
  .table-scroll label.check{display:inline-block;padding:.35rem}
  .filters{display:flex;flex-wrap:wrap;gap:0 var(--space-2);align-items:flex-end} .filters .filter{flex:1 1 10rem}
  main.wide .filters select{min-width:10rem;width:100%} main.wide .filters button{margin-bottom:var(--space-1)}
  ul.evidence{margin:0;padding-left:1rem;min-width:18rem} ul.evidence li{margin:0 0 var(--space-1)}
  .table-scroll td.amount{white-space:nowrap}
  @media (max-width:40rem){
    main.wide{max-width:none;padding:1rem}
    .table-scroll th:first-child,.table-scroll td:first-child,.table-scroll .has-actions :is(th,td):last-child{` +
  `position:sticky;background:var(--surface);z-index:1}
    .table-scroll th:first-child,.table-scroll td:first-child{left:0;max-width:8rem;overflow-wrap:break-word;box-shadow:1px 0 0 var(--line)}
    .table-scroll .has-actions :is(th,td):last-child{right:0;box-shadow:-1px 0 0 var(--line);white-space:normal}
    .has-actions td:last-child form{display:block;margin:0}
    main.wide .has-actions td:last-child button{padding:.35rem .6rem;margin:0 0 var(--space-1)}
    .table-scroll td:first-child{min-width:7rem}
    #reviews thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
    #reviews,#reviews tbody,#reviews tr,#reviews td{display:block}
    #reviews tr{position:relative;padding:var(--space-2) 2.75rem var(--space-2) 0;border-bottom:1px solid var(--line)}
    .table-scroll #reviews td{border:0;padding:.1rem 0}
    .table-scroll #reviews td:first-child{position:static;max-width:none;min-width:0;box-shadow:none;font-weight:600}
    .table-scroll #reviews.has-actions td:last-child{position:absolute;right:0;top:var(--space-2);box-shadow:none;padding:0}
    #reviews ul.evidence{min-width:0}
  }`;
