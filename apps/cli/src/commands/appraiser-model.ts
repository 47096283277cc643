import { join } from 'node:path';
import type { DeviceScheduler, LocalModel, ModelEndpoint } from '@mecha/local-model';
import { configIssueText } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { failure, usageError } from '../command.js';
import { openCommandHome } from '../home.js';
import { modelFetchPrinter } from '../model-fetch-progress.js';
import { type OptionValues, stringOption, wholeNumber } from '../parse-command.js';
import { findServedModel } from '../served-model.js';

/**
 * The appraiser's model as a command makes it: the machine's served model when a model server
 * holds the same GGUF, else a local model (made, not loaded) on its device scheduler.
 */
export interface AppraiserModel {
  readonly home: string;
  /** The GGUF of [model] path. */
  readonly modelPath: string;
  /** The local model, when this process makes its own (never when the model is served). */
  readonly model?: LocalModel;
  /** The serving process, when the model is served: this process then loads none. */
  readonly served?: ModelEndpoint;
  /** Why the machine's model server was not used, when one is up (it holds another GGUF). */
  readonly notServed?: string;
  /** On the machine's device lease: foreground work of another process pre-empts background work. */
  readonly device: DeviceScheduler;
}

/**
 * Makes (without loading) the model of [model] path for `mecha appraiser run`, `recall` and
 * `serve`, with `--threads` and, when given, a context of `contextSize` tokens; or the exit code
 * of the usage error or failure already reported. Unless `local`, the machine's model server is
 * used when one is up and holds the same GGUF (said on stderr).
 */
export async function appraiserModel(
  context: CommandContext,
  path: string,
  values: OptionValues,
  contextSize?: number,
  local = false,
): Promise<AppraiserModel | number> {
  const threadsText = stringOption(values, 'threads');
  const threads = threadsText === undefined ? undefined : wholeNumber(threadsText, '--threads');
  if (threads !== undefined && !threads.ok) return usageError(context, path, threads.message);
  const home = openCommandHome(context);
  const config = home.readConfig();
  if (config._tag === 'Left') {
    return failure(
      context,
      path,
      `config.toml has problems: ${config.left.map(configIssueText).join('; ')}`,
    );
  }
  const localModel = await import('@mecha/local-model');
  const modelPath = await localModel.resolveModelPath(config.right.model, {
    configFile: join(home.path, 'config.toml'),
    onFetch: modelFetchPrinter({
      write: context.stderr,
      isTTY: context.stderrIsTTY,
      label: `mecha ${path}`,
    }),
  });
  if (modelPath.state === 'unreadable') return failure(context, path, modelPath.reason);
  const settings = localModel.resolveModelSettings(config.right.model);
  if (settings.state === 'unreadable') return failure(context, path, settings.reason);
  const leaseDirectory = localModel.deviceLeaseDirectory(home.path, context.env);
  let notServed: string | undefined;
  if (!local) {
    const found = await findServedModel(localModel, context, path, {
      home: home.path,
      leaseDirectory,
      modelPath: modelPath.value,
    });
    if (found.served) {
      return {
        home: home.path,
        modelPath: modelPath.value,
        served: found.served.endpoint,
        device: found.served,
      };
    }
    notServed = found.notServed;
  }
  const model = localModel.createLocalModel({
    path: modelPath.value,
    ...settings.value,
    ...(threads === undefined ? {} : { threads: threads.value }),
    ...(contextSize === undefined ? {} : { contextSize }),
  });
  // The machine's device lease: foreground work of another process (a distill) pre-empts a
  // background run at its next token; a foreground run waits for the device like any other.
  const device = localModel.createDeviceScheduler(model, {
    lease: localModel.openDeviceLease({ directory: leaseDirectory }),
  });
  return {
    home: home.path,
    modelPath: modelPath.value,
    model,
    device,
    ...(notServed === undefined ? {} : { notServed }),
  };
}
