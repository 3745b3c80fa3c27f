// The "New crawl" form: reads its fields into a config, asks the worker to start it, and fills the
// fields from an imported runner config file.
import { sendMessage } from '@/lib/platform/messaging';
import { requestHostAccess } from '@/lib/ui/actions';
import {
  configToForm,
  defaultFormValues,
  formToConfig,
  type CrawlFormValues,
} from '@/lib/ui/config-form';
import { byId, errorText } from '@/lib/ui/dom';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type TextKey = Exclude<keyof CrawlFormValues, 'robots'>;

const textKeys: TextKey[] = [
  'name', 'seeds', 'keywords', 'linkSources', 'positive', 'negative', 'strategy',
  'maxPages', 'maxDepth', 'scopeMode', 'scopeSites', 'delayMs', 'concurrency',
];

export function setupNewCrawlForm(onStarted: (crawlId: number) => void): void {
  const form = byId<HTMLFormElement>('new-crawl-form');
  const field = (name: string) => form.elements.namedItem(name) as Field;
  const robots = field('robots') as HTMLInputElement;
  const startButton = byId<HTMLButtonElement>('start');
  const importInput = byId<HTMLInputElement>('import-config');
  /** The imported config file: settings the form has no field for are taken from it. */
  let importedBase: Record<string, unknown> = {};

  const read = (): CrawlFormValues => {
    const v = defaultFormValues();
    for (const k of textKeys) (v as unknown as Record<TextKey, string>)[k] = field(k).value;
    v.robots = robots.checked;
    return v;
  };
  const write = (v: CrawlFormValues) => {
    for (const k of textKeys) field(k).value = v[k];
    robots.checked = v.robots;
    showScopeSites();
  };
  const showScopeSites = () => {
    byId('scope-sites-field').hidden = field('scopeMode').value !== 'listed-sites';
  };
  const say = (error: string | null, note: string | null = null) => {
    const e = byId('form-error');
    e.hidden = !error;
    e.textContent = error ?? '';
    const n = byId('form-note');
    n.hidden = !note;
    n.textContent = note ?? '';
  };

  write(defaultFormValues());
  field('scopeMode').addEventListener('change', showScopeSites);

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    say(null);
    const config = formToConfig(read(), importedBase);
    startButton.disabled = true;
    requestHostAccess()
      .then((granted) => {
        if (!granted) throw new Error('Focus needs access to websites to crawl them: allow it when the browser asks.');
        return sendMessage('start', config);
      })
      .then(
      ({ crawlId }) => {
        say(null, `Started crawl #${crawlId}.`);
        onStarted(crawlId);
      },
      (err: unknown) => say(errorText(err)),
    ).finally(() => {
      startButton.disabled = false;
    });
  });

  importInput.addEventListener('change', () => {
    const file = importInput.files?.[0];
    if (!file) return;
    file.text().then(
      (text) => {
        const parsed: unknown = JSON.parse(text);
        write(configToForm(parsed, read()));
        importedBase = parsed as Record<string, unknown>;
        say(null, `Loaded ${file.name}. Settings the form has no field for (fetch, safety, judge, …) are taken from the file.`);
      },
    ).catch((err: unknown) => say(`Could not import ${file.name}: ${errorText(err)}`))
      .finally(() => {
        importInput.value = ''; // choosing the same file again fires change again
      });
  });
}
