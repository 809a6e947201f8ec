// The dashboard's files: its own style sheet and script (below, served with a content hash in
// their names so browsers keep them), and what it takes from npm packages, served from
// node_modules by this server (no CDN): uPlot (the chart) and the Inter font (@fontsource).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const STYLE = `@font-face{font-family:Inter;font-style:normal;font-display:swap;font-weight:100 900;
src:url(/dashboard/assets/inter-latin-wght-normal.woff2) format('woff2')}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.5 Inter,system-ui,sans-serif;color:#1d2330;background:#f5f6f8}
a{color:#0a58a8}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;
background:#10213a;color:#fff;padding:.6rem 1rem}
header.top a{color:#fff}
.brand{font-weight:700;font-size:1.05rem;text-decoration:none}
.who{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;font-size:.9rem}
.who form{margin:0}
.who button{background:transparent;color:#fff;border:1px solid #8fa3c0;padding:.2rem .6rem}
nav.sections{background:#fff;border-bottom:1px solid #d5d9e0;overflow-x:auto;white-space:nowrap}
nav.sections ul{display:flex;margin:0;padding:0 .5rem;list-style:none}
nav.sections a{display:block;padding:.6rem .7rem;text-decoration:none;color:#2b3445;border-bottom:3px solid transparent}
nav.sections a[aria-current=page]{border-bottom-color:#0a58a8;color:#0a58a8;font-weight:600}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.3rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:1.4rem 0 .6rem}
h3{font-size:1rem;margin:1rem 0 .4rem}h4{font-size:.9rem;margin:.8rem 0 .3rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.75rem}
.card,.panel{background:#fff;border:1px solid #d5d9e0;border-radius:8px;padding:.8rem 1rem}
.card .label{color:#4a5262;font-size:.85rem}
.card .amount{font-size:1.35rem;font-weight:650;font-variant-numeric:tabular-nums}
.region{overflow-x:auto;background:#fff;border:1px solid #d5d9e0;border-radius:8px}
table{border-collapse:collapse;width:100%}
th,td{padding:.45rem .6rem;text-align:left;border-bottom:1px solid #e4e7ec;vertical-align:top}
th{font-size:.8rem;color:#4a5262;font-weight:600;background:#fafbfc}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr:last-child td{border-bottom:0}
td .mono,td{white-space:nowrap;word-break:normal}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em;word-break:break-all}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600;white-space:nowrap}
.b-ok{background:#dcf1e2;color:#0f5123}.b-wait{background:#fdf0cf;color:#6b4a00}
.b-no{background:#fbe0e1;color:#8a1f25}.b-neutral{background:#e6e9ef;color:#2b3445}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:flex-end;margin-bottom:.8rem}
form.filters label{min-width:0;max-width:100%}
label{display:flex;flex-direction:column;font-size:.85rem;color:#2b3445;gap:.15rem}
input,select,button,textarea{font:inherit}
input,select,textarea{padding:.35rem .5rem;border:1px solid #7b8494;border-radius:6px;background:#fff;color:#1d2330;max-width:100%}
button,.button{display:inline-block;padding:.4rem .9rem;border-radius:6px;border:1px solid #0a58a8;background:#0a58a8;
color:#fff;cursor:pointer;text-decoration:none}
button.secondary{background:#fff;color:#0a58a8}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;margin:.6rem 0}
.actions form{display:flex;gap:.5rem;align-items:flex-end;flex-wrap:wrap;margin:0}
.notice{background:#e8f1fc;border:1px solid #a9c8ee;padding:.6rem .8rem;border-radius:6px;margin:.6rem 0}
.error{background:#fbe0e1;border:1px solid #e3a5a8;padding:.6rem .8rem;border-radius:6px;margin:.6rem 0}
.muted{color:#4a5262}
.pager{display:flex;gap:1rem;margin:.8rem 0;align-items:center;flex-wrap:wrap}
.grid2{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem}
@media (min-width:52rem){.grid2{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
.qr{width:100%;max-width:240px;height:auto;display:block;image-rendering:pixelated}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3rem .8rem;margin:0}
dl.facts dt{color:#4a5262}dl.facts dd{margin:0;overflow-wrap:anywhere}
ol.timeline{list-style:none;margin:0;padding:0}
ol.timeline li{border-left:3px solid #a9c8ee;padding:.2rem 0 .6rem .8rem}
#flow-chart{min-height:240px}
details summary{cursor:pointer;color:#0a58a8;margin:.4rem 0}
pre{white-space:pre-wrap;word-break:break-all;background:#f5f6f8;padding:.6rem;border-radius:6px;margin:0;font-size:.8rem}
.login{max-width:26rem;margin:2rem auto}
.login form{display:flex;flex-direction:column;gap:.7rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

// Browser code, written for the pages' data-* attributes (no inline script: the CSP allows
// only this file and the chart library, by nonce).
const SCRIPT = `(function(){
'use strict';
function poll(el){
  var url=el.getAttribute('data-live'),every=Number(el.getAttribute('data-every')||2000),busy=false;
  function once(){
    if(busy||document.hidden)return;busy=true;
    fetch(url,{headers:{Accept:'application/json'},credentials:'same-origin'}).then(function(r){return r.ok?r.json():null})
    .then(function(data){
      if(!data)return;
      Object.keys(data.panels||{}).forEach(function(id){
        var target=document.querySelector('[data-panel="'+id+'"]');
        if(target&&target.getAttribute('data-html')!==data.panels[id]){target.innerHTML=data.panels[id];target.setAttribute('data-html',data.panels[id]);}
      });
    }).catch(function(){}).then(function(){busy=false});
  }
  el.pollNow=once;setInterval(once,every);
}
function submitAsync(form){
  form.addEventListener('submit',function(ev){
    ev.preventDefault();
    var status=document.getElementById(form.getAttribute('data-status')||'form-status');
    var body=new URLSearchParams(new FormData(form));
    fetch(form.action,{method:'POST',body:body,credentials:'same-origin',headers:{Accept:'application/json'}})
    .then(function(r){return r.json().then(function(j){return{ok:r.ok,j:j}})})
    .then(function(res){
      if(status)status.textContent=res.j.message||'';
      var live=document.querySelector('[data-live]');if(live&&live.pollNow)live.pollNow();
    }).catch(function(){if(status)status.textContent='!';});
  });
}
function chart(){
  var holder=document.getElementById('flow-chart'),source=document.getElementById('flow-data');
  if(!holder||!source||!window.uPlot)return;
  var d=JSON.parse(source.textContent);
  var bars=uPlot.paths.bars({size:[0.35,40],gap:2});
  function width(){return Math.max(280,holder.clientWidth)}
  d.fmt=function(v){return v==null?'':'R$ '+(v/100).toLocaleString('pt-BR',{minimumFractionDigits:2})};
  var plot=new uPlot({width:width(),height:240,
    tzDate:function(ts){return uPlot.tzDate(new Date(ts*1e3),'America/Sao_Paulo')},
    series:[{label:d.dayLabel,value:'{DD}/{MM}'},
      {label:d.labels[0],stroke:'#146c2e',fill:'rgba(20,108,46,.55)',paths:bars,points:{show:false},value:function(u,v){return d.fmt(v)}},
      {label:d.labels[1],stroke:'#a4262c',fill:'rgba(164,38,44,.55)',paths:bars,points:{show:false},value:function(u,v){return d.fmt(v)}}],
    axes:[{values:[[86400,'{DD}/{MM}',null,null,null,null,null,null,1],[1,'{DD}/{MM}',null,null,null,null,null,null,1]]},{size:70,values:function(u,vals){return vals.map(function(v){return 'R$ '+(v/100).toLocaleString('pt-BR')})}}],
    scales:{y:{range:function(u,min,max){return[0,Math.max(100,max)]}}},
    hooks:{ready:[today],setCursor:[function(u){if(u.cursor.idx==null)today(u)}]}
  },[d.days,d.moneyIn,d.moneyOut],holder);
  // Unhovered, the legend says today's figures (uPlot's own would say "--" and nothing).
  function today(u){u.setLegend({idx:u.data[0].length-1},false)}
  window.addEventListener('resize',function(){plot.setSize({width:width(),height:240})});
}
function copy(btn){
  btn.addEventListener('click',function(){
    var target=document.getElementById(btn.getAttribute('data-copy'));
    if(target&&navigator.clipboard)navigator.clipboard.writeText(target.textContent.trim());
  });
}
document.querySelectorAll('[data-live]').forEach(poll);
document.querySelectorAll('form[data-async]').forEach(submitAsync);
document.querySelectorAll('button[data-copy]').forEach(copy);
chart();
})();`;

const hashOf = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 12);

interface Asset {
  body: string | Buffer;
  type: string;
}

function packageFile(pkg: string, file: string): Buffer {
  const folder = dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
  return readFileSync(join(folder, file));
}

// The files by the name pages link them with; read once, on first use.
let assets: Map<string, Asset> | undefined;

function load(): Map<string, Asset> {
  return new Map<string, Asset>([
    [STYLE_NAME, { body: STYLE, type: 'text/css; charset=utf-8' }],
    [SCRIPT_NAME, { body: SCRIPT, type: 'text/javascript; charset=utf-8' }],
    [
      'uPlot.iife.min.js',
      { body: packageFile('uplot', 'dist/uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
    ],
    ['uPlot.min.css', { body: packageFile('uplot', 'dist/uPlot.min.css'), type: 'text/css; charset=utf-8' }],
    [
      'inter-latin-wght-normal.woff2',
      { body: packageFile('@fontsource-variable/inter', 'files/inter-latin-wght-normal.woff2'), type: 'font/woff2' },
    ],
  ]);
}

export const STYLE_NAME = `dashboard-${hashOf(STYLE)}.css`;
export const SCRIPT_NAME = `dashboard-${hashOf(SCRIPT)}.js`;

export function assetNamed(name: string): Asset | undefined {
  assets ??= load();
  return assets.get(name);
}
