package io.chanledger.api.marketplace.skills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.marketplace.directory.MarketplaceProperties;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

/**
 * Publishes the skill files at start ({@code chan.marketplace.skills.location}); the file name is
 * the slug. A file whose content is already the current version adds nothing, so restarts and
 * several instances starting together leave one version per change. A file that fails validation
 * is reported and skipped: the service still starts, with the skill's earlier version if any.
 */
@Component
class SkillFiles implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(SkillFiles.class);

    private final SkillCatalog catalog;
    private final ObjectMapper mapper;
    private final String location;

    SkillFiles(SkillCatalog catalog, ObjectMapper mapper, MarketplaceProperties properties) {
        this.catalog = catalog;
        this.mapper = mapper;
        this.location = properties.skills().location();
    }

    @Override
    public void run(ApplicationArguments args) throws IOException {
        Resource[] files = new PathMatchingResourcePatternResolver().getResources(location);
        int published = 0;
        for (Resource file : files) {
            String name = file.getFilename();
            if (name == null || !name.endsWith(".json")) {
                continue;
            }
            String slug = name.substring(0, name.length() - ".json".length());
            try (InputStream in = file.getInputStream()) {
                JsonNode document = mapper.readTree(in);
                if (catalog.publish(slug, document, "file").created()) {
                    published++;
                }
            } catch (InvalidSkillException e) {
                log.error("skill file {} refused: {}", name, e.getMessage());
            } catch (IOException e) {
                log.error("skill file {} is not readable JSON: {}", name, e.getMessage());
            }
        }
        log.info("skills: {} files at {}, {} new versions", files.length, location, published);
    }
}
