import { join } from 'node:path';
import type { DeviceScheduler, LocalModel } from '@mecha/local-model';
import { configIssueText } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { failure, usageError } from '../command.js';
import { openCommandHome } from '../home.js';
import { modelFetchPrinter } from '../model-fetch-progress.js';
import { type OptionValues, stringOption, wholeNumber } from '../parse-command.js';

/** The appraiser's model as a command makes it: the local model and its device scheduler. */
export interface AppraiserModel {
  readonly home: string;
  readonly model: LocalModel;
  /** On the machine's device lease: foreground work of another process pre-empts background work. */
  readonly device: DeviceScheduler;
}

/**
 * Makes (without loading) the model of [model] path for `mecha appraiser run` and `serve`, with
 * `--threads` and, when given, a context of `contextSize` tokens; or the exit code of the usage
 * error or failure already reported.
 */
export async function appraiserModel(
  context: CommandContext,
  path: string,
  values: OptionValues,
  contextSize?: number,
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
  const model = localModel.createLocalModel({
    path: modelPath.value,
    ...settings.value,
    ...(threads === undefined ? {} : { threads: threads.value }),
    ...(contextSize === undefined ? {} : { contextSize }),
  });
  // The machine's device lease: foreground work of another process (a distill) pre-empts a
  // background run at its next token; a foreground run waits for the device like any other.
  const device = localModel.createDeviceScheduler(model, {
    lease: localModel.openDeviceLease({
      directory: localModel.deviceLeaseDirectory(home.path, context.env),
    }),
  });
  return { home: home.path, model, device };
}
