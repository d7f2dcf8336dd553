// What the nodes feature offers other features to read about nodes, on top of its repository.
export { findViableNodes } from './node-capacity';
export { findNodeRecord, nodeExists } from './nodes.repository';
