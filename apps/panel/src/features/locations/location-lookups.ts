// What the locations feature offers other features to read, on top of its repository.
export { findLocationsOfNodes, locationExists } from './locations.repository';
