import { limits } from '@aerie/shared/limits';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { CopyIcon } from '@/components/ui/icons';
import { MessageBox } from '@/components/ui/message-box';
import { SpinnerBlock } from '@/components/ui/spinner';
import { type AdminNode, nodeConfigurationQueryOptions } from '@/features/admin-nodes/api/nodes';
import { errorToMessage } from '@/lib/api-client';

/** Where the README's multi-node steps keep the document, and how `aerie daemon` starts from it. */
export const nodeConfigPath = '/etc/aerie/node.json';
export const daemonStartCommand = `DAEMON_CONFIG=${nodeConfigPath} npx aerie daemon`;

const code = <code className="break-all rounded bg-ink-950 px-1.5 py-0.5 font-mono text-xs text-ink-100" />;

/**
 * The configuration tab: the node's document (Wings' keys plus `aerie.env`, with the daemon token) to copy onto
 * the node's machine, and the command that starts `aerie daemon` from it.
 */
export function NodeConfiguration({ node }: { node: AdminNode }) {
  const { t } = useTranslation('admin');
  const configuration = useQuery(nodeConfigurationQueryOptions(node.id));
  const [copied, setCopied] = useState<number | null>(null);
  const [copyFailed, setCopyFailed] = useState(false);
  const json = configuration.data ? JSON.stringify(configuration.data, null, 2) : '';

  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), limits.copyToastMs);
    return () => clearTimeout(timer);
  }, [copied]);

  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(json);
      setCopyFailed(false);
      setCopied(Date.now());
    } catch {
      setCopyFailed(true);
    }
  };

  const startedByAerieUp =
    (configuration.data?.aerie as { started_by?: unknown } | undefined)?.started_by === 'aerie up';
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-5">
      {startedByAerieUp && (
        <MessageBox type="info" className="xl:col-span-5">
          {t('nodes.configuration.local_node')}
        </MessageBox>
      )}
      <ContentBox title={t('nodes.configuration.file_title')} className="xl:col-span-3">
        <p className="mb-4 text-sm text-ink-300">
          <Trans
            t={t}
            i18nKey="nodes.configuration.file_text"
            values={{ path: nodeConfigPath }}
            components={{ code }}
          />
        </p>
        {configuration.error ? (
          <MessageBox type="error">{errorToMessage(configuration.error)}</MessageBox>
        ) : !configuration.data ? (
          <SpinnerBlock />
        ) : (
          <>
            <div className="mb-3 flex flex-wrap items-center gap-3">
              <Button size="sm" variant="secondary" onClick={() => void handleCopy()}>
                <CopyIcon className="size-4" />
                {t('nodes.configuration.copy')}
              </Button>
              {copyFailed && (
                <span className="text-xs text-red-400">{t('nodes.configuration.copy_failed')}</span>
              )}
            </div>
            {copied !== null && (
              <MessageBox type="success" className="mb-3">
                <span role="status">
                  {t('nodes.configuration.copied', { path: nodeConfigPath, command: daemonStartCommand })}
                </span>
              </MessageBox>
            )}
            <section aria-label={t('nodes.configuration.file_title')}>
              <pre
                // biome-ignore lint/a11y/noNoninteractiveTabindex: the block scrolls; keyboard users reach it to scroll.
                tabIndex={0}
                className="max-h-[32rem] overflow-auto rounded-lg border border-ink-800 bg-ink-950 p-4 font-mono text-xs leading-relaxed text-ink-100"
              >
                <code>{json}</code>
              </pre>
            </section>
          </>
        )}
      </ContentBox>
      <ContentBox title={t('nodes.configuration.start_title')} className="xl:col-span-2">
        <ol className="list-decimal space-y-4 ps-5 text-sm text-ink-300">
          <li>
            <Trans
              t={t}
              i18nKey="nodes.configuration.step_save"
              values={{ path: nodeConfigPath }}
              components={{ code }}
            />
          </li>
          <li>
            <p className="mb-2">{t('nodes.configuration.step_start')}</p>
            <div className="rounded-lg border border-ink-800 bg-ink-950 px-3 py-2">
              <CopyOnClick text={daemonStartCommand} className="break-all font-mono text-xs text-ink-100">
                <code>{daemonStartCommand}</code>
              </CopyOnClick>
            </div>
          </li>
          <li>
            <Trans t={t} i18nKey="nodes.configuration.step_env" components={{ code }} />
          </li>
        </ol>
        <p className="mt-4 text-xs text-ink-400">{t('nodes.configuration.restart_hint')}</p>
        {node.scheme === 'https' && (
          <p className="mt-2 text-xs text-ink-400">{t('nodes.configuration.tls_hint')}</p>
        )}
      </ContentBox>
    </div>
  );
}
