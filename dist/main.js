#!/usr/bin/env node
var a=`usage: massnick <start | doctor | run | demo | sandbox> [options]

  start     run massnick against Discord (or DISCORD_API_URL), configured by .env and config/
  doctor    check every token, invite, permission, role and intent before a job; --help for options
  run       run one job (massnick, massrole, restore) from a terminal or a scheduler and exit; --help
  demo      start a local sandbox guild and show a rename and a restore end to end
  sandbox   run the local Discord sandbox alone (npm run sandbox -- --help)

The benchmark is npm run bench (bench/, never part of the product).`,s=new Set(["demo","sandbox"]),[o,...n]=process.argv.slice(2);try{switch(o){case"start":{let{runStart:e}=await import("./chunks/runStart-WD3KPNME.js");await e();break}case"doctor":{let{runDoctorCommand:e}=await import("./chunks/runDoctorCommand-X3NKGOQT.js");process.exitCode=await e(n);break}case"run":{let{runJobCommand:e}=await import("./chunks/runJobCommand-R2GSKOGJ.js");process.exitCode=await e(n);break}case"demo":{let{runDemo:e}=await import("./chunks/runDemo-E7D2NXLF.js");process.exitCode=await e(n);break}case"sandbox":{let{runSandboxCli:e}=await import("./chunks/cli-YYOX7PUN.js");await e(n);break}default:console.error(a),process.exitCode=o===void 0||o==="--help"?0:2}}catch(e){e.code==="ERR_MODULE_NOT_FOUND"&&o!==void 0&&s.has(o)?console.error(`massnick ${o} needs the development install, which has the sandbox's packages: run npm install (not npm ci --omit=dev), then npm run ${o}.`):console.error(e.message),process.exitCode=1}
//# sourceMappingURL=main.js.map
