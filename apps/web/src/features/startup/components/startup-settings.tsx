import { canAll } from '@aerie/shared/permissions/can';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ContentBox } from '@/components/ui/content-box';
import { ServerDownIllustration } from '@/components/ui/illustrations';
import { ScreenBlock } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { startupQueryOptions } from '@/features/startup/api/startup';
import { DockerImageBox } from '@/features/startup/components/docker-image-box';
import { VariableBox } from '@/features/startup/components/variable-box';
import { errorToMessage } from '@/lib/api-client';

/** The Startup page's content: the command, the Docker image and the variables, or why they could not load. */
export function StartupSettings() {
  const { t } = useTranslation('server');
  const server = useServer();
  const canUpdate = canAll(useServerPermissions(), ['startup.update']);
  const startup = useQuery(startupQueryOptions(server.id));

  if (!startup.data) {
    if (startup.error && !startup.isFetching) {
      return (
        <ScreenBlock
          title={t('startup.load_error_title')}
          message={errorToMessage(startup.error)}
          illustration={<ServerDownIllustration />}
          onRetry={() => void startup.refetch()}
        />
      );
    }
    return <SpinnerBlock />;
  }

  const { invocation, dockerImages, variables } = startup.data;
  return (
    <>
      <div className="grid gap-6 lg:grid-cols-3 lg:gap-10">
        <ContentBox title={t('startup.command')} className="lg:col-span-2">
          <p className="break-all rounded-lg bg-ink-950 px-4 py-2.5 font-mono text-sm text-ink-100">
            {invocation}
          </p>
        </ContentBox>
        <DockerImageBox images={dockerImages} />
      </div>
      <h2 className="mt-8 mb-4 text-xl font-semibold text-ink-50">{t('startup.variables')}</h2>
      <div className="grid gap-6 md:grid-cols-2 md:gap-8">
        {variables.map((variable) => (
          <VariableBox key={variable.envVariable} variable={variable} canUpdate={canUpdate} />
        ))}
      </div>
    </>
  );
}
