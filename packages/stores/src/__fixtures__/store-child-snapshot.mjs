// The entry of the writer's startup snapshot: everything is loaded when the snapshot is built,
// and each process only runs `main` with its own arguments.
import v8 from 'node:v8';
import { main } from './store-child.mjs';

v8.startupSnapshot.setDeserializeMainFunction(() => {
  main(process.argv.slice(1));
});
