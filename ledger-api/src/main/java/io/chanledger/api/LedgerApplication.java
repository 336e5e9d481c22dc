package io.chanledger.api;

import io.chanledger.api.ledger.audit.AuditCommand;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication(scanBasePackages = "io.chanledger")
@ConfigurationPropertiesScan("io.chanledger")
public class LedgerApplication {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("audit")) {
            System.exit(AuditCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        // A payment service does not report usage to third parties, and its network may be closed.
        System.setProperty("axoniq.update-checker.disabled", System.getProperty("axoniq.update-checker.disabled", "true"));
        SpringApplication.run(LedgerApplication.class, args);
    }
}
