// The public surface of @mecha/replay: the replayers a surface can open for the counterfactual
// probe and `sessions compare`.
export type { LocalModelReplayerOptions } from './local-model-replayer.js';
export { createLocalModelReplayer } from './local-model-replayer.js';
export type { OpenReplayer, OpenReplayerOptions } from './open-replayer.js';
export { openReplayer } from './open-replayer.js';
