package io.claimguard.telemetry;

import org.apache.camel.Exchange;

/** What the pipeline reports to OpenTelemetry: each input once it is done with. */
public interface InputTelemetry {

    /** Telemetry off: nothing is recorded and nothing of OpenTelemetry runs. */
    InputTelemetry OFF = exchange -> {
    };

    /** When an input is done with: audited and forwarded, or set aside. */
    void completed(Exchange exchange);
}
