import { useTranslation } from 'react-i18next';
import { NotFoundIllustration } from '@/components/ui/illustrations';
import { ScreenBlock } from '@/components/ui/screen-block';

/** A server page the user holds no permission for. */
export function AccessDenied() {
  const { t } = useTranslation('server');
  return (
    <ScreenBlock
      title={t('access_denied.title')}
      message={t('access_denied.message')}
      illustration={<NotFoundIllustration />}
    />
  );
}
