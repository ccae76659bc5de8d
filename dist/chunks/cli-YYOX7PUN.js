import{a,b as n,c as b}from"./chunk-LOCHKKL7.js";import{once as g}from"node:events";import{parseArgs as S}from"node:util";import{pino as f}from"pino";var w=`usage: npm run sandbox -- [--members N] [--workers N] [--seed N] [--port N] [--host ADDR] [--time-scale F] [--log-level LEVEL]
                          [--worker-members-intent]

  --members     generated members, 10..10000000 (default ${n.members}); the bots join on top
  --workers     worker applications besides the boss (default ${n.workers})
  --seed        same seed, same guild, ids and tokens (default ${n.seed})
  --port        0 picks a free port (default ${n.port})
  --host        loopback address to listen on (default ${n.host}; the control API has no authentication)
  --time-scale  divides every rate-limit window (default ${n.timeScale})
  --log-level   pino level for the logs on stderr (default info)
  --worker-members-intent
                the worker applications have the Server Members intent too (default: the boss's alone)

Prints one JSON line on stdout once listening: {"apiUrl","controlUrl","guildId","ownerId","channelId","bossToken","workerTokens"}.
Runs until SIGINT or SIGTERM.`,v={members:{type:"string"},workers:{type:"string"},seed:{type:"string"},port:{type:"string"},host:{type:"string"},"time-scale":{type:"string"},"log-level":{type:"string"},"worker-members-intent":{type:"boolean"},help:{type:"boolean",short:"h"}};function x(r){let e;try{({values:e}=S({args:[...r],options:v,strict:!0,allowPositionals:!1}))}catch(i){throw new a([{option:"arguments",message:i.message}])}let o=[],t=(i,m)=>{let s=e[i];if(s===void 0||typeof s!="string")return;let p=Number(s);if(s.trim()===""||!Number.isFinite(p)||m&&!Number.isInteger(p)){o.push({option:`--${i}`,message:`must be ${m?"an integer":"a number"}, got "${s}"`});return}return p},u={members:t("members",!0),workers:t("workers",!0),seed:t("seed",!0),port:t("port",!0),timeScale:t("time-scale",!1),...e.host===void 0?{}:{host:e.host},...e["worker-members-intent"]===!0?{workerMembersIntent:!0}:{}},l=e["log-level"]??"info";if(["fatal","error","warn","info","debug","trace","silent"].includes(l)||o.push({option:"--log-level",message:`unknown level "${l}"`}),o.length>0)throw new a(o);return{options:u,logLevel:l,help:e.help===!0}}var $={members:"--members",workers:"--workers",seed:"--seed",port:"--port",host:"--host",timeScale:"--time-scale"};async function G(r){let e;try{e=x(r)}catch(d){return h(d)}if(e.help){process.stdout.write(`${w}
`);return}let o=f({level:e.logLevel,redact:["token","*.token","bossToken","workerTokens","headers.authorization"]},f.destination(2)),t;try{t=await b({...e.options,logger:o})}catch(d){if(d instanceof a)return h(new a(d.problems.map(c=>({...c,option:$[c.option]??c.option}))));throw d}let{apiUrl:u,controlUrl:l,guildId:i,ownerId:m,channelId:s,bossToken:p,workerTokens:k}=t;process.stdout.write(`${JSON.stringify({apiUrl:u,controlUrl:l,guildId:i,ownerId:m,channelId:s,bossToken:p,workerTokens:k})}
`);let[y]=await Promise.race([g(process,"SIGINT"),g(process,"SIGTERM")]);o.info({signal:y},"stopping"),await t.close(),o.flush(),process.exitCode=0}function h(r){let e=r instanceof a?r.problems.map(o=>`${o.option}: ${o.message}`).join(`
`):String(r);process.stderr.write(`sandbox: ${e}

${w}
`),process.exit(2)}export{x as parseSandboxArgs,G as runSandboxCli};
//# sourceMappingURL=cli-YYOX7PUN.js.map
