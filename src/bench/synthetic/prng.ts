/** The synthetic testbed's seeded PRNG lives with the core utilities (the conversation-cost replay uses it too). */
export { Rng, subSeed } from "../../core/util/rng.js";
