import { Duration } from 'aws-cdk-lib';
import { type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { APP_METRICS, type AppMetric } from '../../shared/operations/metrics';
import { ALARM_THRESHOLDS, APP_METRIC_SOURCES, metricNamespace } from '../definitions/alarms';
import { COGNITO_TRIGGERS } from '../definitions/services';

/**
 * Functions whose Lambda Errors include refusals made on purpose, and the metric that counts those: Cognito shows a
 * PreSignUp trigger's message to the person only when the function fails, so each sign-up the linking rule refuses
 * is an "error" to Lambda. Their alarms (the operations stack's, CodeDeploy's rollback alarm) count the rest only.
 */
export const DELIBERATE_ERRORS: Readonly<Record<string, AppMetric>> = Object.fromEntries(
  COGNITO_TRIGGERS.filter((fn) => (fn.triggers as readonly string[]).includes('PreSignUp')).map((fn) => [
    fn.name,
    APP_METRICS.signUpsRefused,
  ]),
);

/**
 * The errors of function `id` that should page or roll back: Lambda's Errors metric (`errors`), less what the
 * function counted as refused on purpose when it is one of {@link DELIBERATE_ERRORS}.
 */
export const unexpectedErrors = (id: string, errors: IMetric, env: string, label = `${id} errors`): IMetric => {
  const deliberate = DELIBERATE_ERRORS[id];
  if (!deliberate) return errors;
  const period = Duration.minutes(ALARM_THRESHOLDS.functionErrors.periodMinutes);
  return new MathExpression({
    expression: 'errors - FILL(refused, 0)',
    usingMetrics: {
      errors,
      refused: new Metric({
        namespace: metricNamespace(env),
        metricName: deliberate,
        dimensionsMap: { service: APP_METRIC_SOURCES[deliberate] },
        statistic: 'Sum',
        period,
      }),
    },
    period,
    label,
  });
};
