import type { ModelClient } from 'switchyard';
import type { BatchTask } from './batch-tasks.js';
import { chooseModel, providerOf, refuseDemoModelWithTools } from './choose-model.js';
import type { CommandIo } from './command-io.js';
import { type CommandLine, flagOption, stringOption } from './command-line.js';
import { InputError } from './errors.js';
import { firstExport, importUserModule } from './import-user-module.js';
import { limitedModel, type ModelLimiter } from './model-limiter.js';

function isModelClient(value: unknown): value is ModelClient {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ModelClient).stream === 'function'
  );
}

/**
 * How `batch` gets each task's model: a `--model-module` (a `ModelClient`, or a function of the
 * task returning one), else a provider client shared by every task, else the scripted demo per
 * task. Models other than the demo go through the shared limiter.
 *
 * `tasksScriptCalls`: every task of the batch scripts its calls for the demo (`scriptedCalls`).
 *
 * @throws InputError for a model module that exports no model; InvalidOptionError for a bad
 *   provider; UsageError for `--tools` with the scripted demo model (`refuseDemoModelWithTools`).
 */
export async function taskModels(
  line: CommandLine,
  io: CommandIo,
  limiter: ModelLimiter,
  tasksScriptCalls: () => boolean = () => false,
): Promise<(task: BatchTask) => Promise<ModelClient>> {
  const path = stringOption(line, 'model-module');
  if (path !== undefined) {
    const module = await importUserModule(path, '--model-module', io.cwd);
    const chosen = firstExport(module, ['default', 'createModel', 'model']);
    const value = chosen?.value;
    if (isModelClient(value)) return async () => limitedModel(value, limiter);
    if (typeof value !== 'function') {
      throw new InputError(
        `--model-module ${path}: export default a ModelClient or a function (task) => ModelClient`,
      );
    }
    return async (task) => {
      const model = await (value as (task: BatchTask) => unknown)(task);
      if (!isModelClient(model)) {
        throw new InputError(`--model-module ${path}: the function did not return a ModelClient`);
      }
      return limitedModel(model, limiter);
    };
  }
  const choice = {
    provider: stringOption(line, 'provider'),
    model: stringOption(line, 'model'),
    baseURL: stringOption(line, 'base-url'),
    env: io.env,
  };
  // A producer of `batch --queue` runs no model: its workers do, with their own.
  const producer = stringOption(line, 'queue') !== undefined && !flagOption(line, 'worker');
  if (!producer)
    refuseDemoModelWithTools(providerOf(choice), stringOption(line, 'tools'), tasksScriptCalls);
  if (providerOf(choice) === 'scripted') {
    await chooseModel({ ...choice, task: 'check' }); // refuses a bad --provider before any task
    return (task) => chooseModel({ ...choice, task: task.task });
  }
  // The limiter waits out 429s for every session at once, so the SDK does not retry them itself.
  const shared = limitedModel(await chooseModel({ ...choice, task: '', maxRetries: 0 }), limiter);
  return async () => shared;
}
