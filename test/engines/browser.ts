// The browser bundle's entry: the scenario and the live Lease list, as the global `leaseScenario`.
import { runScenario, watchLeasesLive } from './scenario.js';

export interface LeaseScenarioGlobal {
  runScenario: typeof runScenario;
  watchLeasesLive: typeof watchLeasesLive;
}

(globalThis as unknown as { leaseScenario: LeaseScenarioGlobal }).leaseScenario = { runScenario, watchLeasesLive };
