import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NotFoundPage } from '@/components/ui/screen-block';
import { paths } from '@/config/paths';

export function AuthNotFoundRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return <NotFoundPage onBack={() => navigate(paths.auth.login)} backLabel={t('actions.return_to_login')} />;
}
