import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { MessageBox } from '@/components/ui/message-box';

/** The recovery codes, shown once, with the only way out of the modal at this point: its Close button. */
export function RecoveryCodes({ tokens, onClose }: { tokens: string[]; onClose: () => void }) {
  const { t } = useTranslation(['account', 'strings']);
  return (
    <>
      <p className="text-sm leading-relaxed text-ink-300">{t('two_factor.recovery_intro')}</p>
      <div className="mt-4 rounded-lg border border-ink-700 bg-ink-900 p-4">
        <CopyOnClick text={tokens.join('\n')} className="w-full">
          <span className="grid grid-cols-2 gap-x-6 gap-y-1.5">
            {tokens.map((token) => (
              <code key={token} className="block font-mono text-sm text-ink-100">
                {token}
              </code>
            ))}
          </span>
        </CopyOnClick>
      </div>
      <MessageBox type="warning" className="mt-4">
        {t('two_factor.recovery_warning')}
      </MessageBox>
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose}>{t('strings:actions.close')}</Button>
      </div>
    </>
  );
}
