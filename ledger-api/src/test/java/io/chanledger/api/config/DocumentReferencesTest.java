package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository explains itself: every document its files point to is in it. A relative link of
 * a Markdown page, and a {@code docs/….md} named in code, must lead to a file of the repository;
 * and nothing cites a protocol document or a spec kept somewhere else (the facts the code relies
 * on are in docs/protocol.md).
 */
class DocumentReferencesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> SKIPPED = Set.of(".git", "node_modules", "target", "dist", "data");
    private static final Set<String> TEXT = Set.of(".java", ".md", ".mjs", ".ts", ".tsx", ".sh", ".yml", ".sql",
            ".sol");
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    private static final Pattern DOCS_NAMED = Pattern.compile("\\bdocs/([a-z0-9-]+\\.md)");
    private static final Pattern OUTSIDE = Pattern.compile("PROTOCOL\\.md|\\bspec §|shared[/]vectors|[.][.][/]shared[/]");

    @Test
    void everyRelativeLinkOfAPageLeadsToAFileOfTheRepository() {
        List<String> broken = new ArrayList<>();
        for (Path page : files(".md")) {
            Matcher link = MARKDOWN_LINK.matcher(read(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.contains(":") || target.startsWith("/")) {
                    continue; // a URL, or a path of the running service
                }
                if (!Files.exists(page.getParent().resolve(target).normalize())) {
                    broken.add(ROOT.relativize(page) + " → " + target);
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void everyDocumentNamedInTheCodeIsInTheRepository() {
        List<String> missing = new ArrayList<>();
        for (Path file : files(null)) {
            Matcher named = DOCS_NAMED.matcher(read(file));
            while (named.find()) {
                if (!Files.isRegularFile(ROOT.resolve("docs").resolve(named.group(1)))) {
                    missing.add(ROOT.relativize(file) + " → docs/" + named.group(1));
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void nothingCitesADocumentKeptOutsideTheRepository() {
        List<String> citing = new ArrayList<>();
        for (Path file : files(null)) {
            if (file.endsWith(Path.of("DocumentReferencesTest.java"))) {
                continue;
            }
            String[] lines = read(file).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (OUTSIDE.matcher(lines[i]).find()) {
                    citing.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        assertThat(citing).isEmpty();
    }

    /** The repository's text files ending in {@code suffix} (null: every kind of text file), build output left out. */
    private static List<Path> files(String suffix) {
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    return SKIPPED.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    String name = file.getFileName().toString();
                    if (suffix == null ? TEXT.stream().anyMatch(name::endsWith) : name.endsWith(suffix)) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(found).as("files found under " + ROOT).isNotEmpty();
        return found;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
